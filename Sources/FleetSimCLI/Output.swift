import Foundation
import Reports

/// Checks an output directory before any work starts, so a bad `--out` costs a
/// second, not a whole simulation.
enum OutputDirectory {
    /// The longest file name in a path (`NAME_MAX` of Linux file systems).
    static let maximumComponentBytes = 255
    /// The longest path, with room for the files written under it and their
    /// temporaries (`PATH_MAX` of Linux is 4096 bytes, counting the final NUL).
    static let maximumPathBytes = 4_096 - 64

    /// Why reports cannot be written under `path`, or nil when they can.
    ///
    /// Refused: an empty path; a component above 255 bytes; a path (made absolute)
    /// above 4,032 bytes; a symbolic link that points nowhere or into a loop; a file
    /// where a directory must be. Then the path is tried: the missing directories are
    /// created, a probe file is created and removed in the last, and the directories
    /// created are removed again, which also catches read-only file systems (where
    /// `access(2)` as root says yes) and whatever else the system refuses.
    static func problem(with path: String) -> String? {
        guard !path.isEmpty else { return "the path is empty (give a directory, e.g. --out reports/x)" }
        if let long = path.split(separator: "/").first(where: { $0.utf8.count > maximumComponentBytes }) {
            return "the name '\(long.prefix(40))…' is \(long.utf8.count) bytes long; file systems allow at most \(maximumComponentBytes)"
        }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        guard absolute.utf8.count <= maximumPathBytes else {
            return "the path is \(absolute.utf8.count) bytes long (made absolute); at most \(maximumPathBytes) leave room for the report files' names"
        }
        // The nearest existing ancestor, through symbolic links that must resolve.
        var missing: [String] = []
        var candidate = path
        while true {
            var status = stat()
            if lstat(candidate, &status) == 0 {
                if status.st_mode & S_IFMT == S_IFLNK, stat(candidate, &status) != 0 {
                    return errno == ELOOP ? "'\(candidate)' is a symbolic link in a loop"
                        : "'\(candidate)' is a symbolic link to nothing (\(String(cString: strerror(errno))))"
                }
                guard status.st_mode & S_IFMT == S_IFDIR else {
                    return missing.isEmpty ? "it exists and is not a directory" : "'\(candidate)' is a file, not a directory"
                }
                break
            }
            guard errno == ENOENT || errno == ENOTDIR else { return "'\(candidate)': \(String(cString: strerror(errno)))" }
            missing.append(candidate)
            candidate = parent(of: candidate)
        }
        // Try it: create what is missing, a probe file in it, then remove them all.
        var created: [String] = []
        defer { for directory in created.reversed() { rmdir(directory) } }
        for directory in missing.reversed() {
            guard mkdir(directory, 0o755) == 0 else {
                return "cannot create '\(directory)' (\(String(cString: strerror(errno))))"
            }
            created.append(directory)
        }
        let probe = "\(path)/.fleetsim-write-check-\(getpid())"
        let fd = open(probe, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            return created.isEmpty ? "cannot create a file in it (\(reason))" : "cannot create a file in '\(path)' (\(reason))"
        }
        close(fd)
        unlink(probe)
        return nil
    }

    /// The directory that holds `path`: `o` -> `.`, `a/b/` -> `a`, `/x` -> `/`. Written out
    /// because Foundation's `deletingLastPathComponent` traps on a one-component relative
    /// path on Linux (`--out o` crashed).
    static func parent(of path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "." }
        if slash == p.startIndex { return "/" }
        return String(p[..<slash])
    }

    /// Throws the problem as an input error naming the path: the path's own
    /// (``problem(with:)``) or its parent's, which must take the temporary directory of
    /// the set (``ReportSet/parentProblem(_:)``).
    static func check(_ path: String) throws(CLIError) {
        if let problem = problem(with: path) ?? ReportSet.parentProblem(path) { throw .input("--out \(Shell.quote(String(path.prefix(300)))): cannot write there: \(problem)") }
    }

    /// The same checks for an output file (`shrink --out`): its directory, its name's
    /// length, and that it is not a directory.
    static func checkFile(_ path: String) throws(CLIError) {
        var isDirectory: ObjCBool = false
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        if path.isEmpty || path.hasSuffix("/") || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue) {
            throw .input("--out \(path.prefix(300)): cannot write there: expected a file name, found \(path.isEmpty ? "an empty path" : "a directory")")
        }
        // Room for the temporary name `.<name>.tmp-XXXXXX`.
        guard name.utf8.count <= maximumComponentBytes - 12 else {
            throw .input("--out \(path.prefix(300)): cannot write there: the file name is \(name.utf8.count) bytes long; at most \(maximumComponentBytes - 12)")
        }
        if let problem = problem(with: parent(of: path)) { throw .input("--out \(path.prefix(300)): cannot write there: \(problem)") }
    }
}

/// The replay command printed on the console: the window of report.json's `replay`
/// strings (5 min before the violation to 1 min after, in whole seconds), with the
/// binary as invoked and every argument shell-quoted, so it can be pasted as is.
/// (report.json's own strings say `fleetsim`, quoted by the same ``Shell``: they must
/// not depend on the machine.)
enum ReplayCommand {
    static func text(executable: String, scenario path: String, seed: UInt64, device: Int64, timeSeconds: Double, options: [String]) -> String {
        let second = Int64((timeSeconds * 1_000_000).rounded()) / 1_000_000
        return Shell.command([executable, "replay", path, "--seed", String(seed), "--device", String(device),
                              "--from", "\(max(0, second - 300))s", "--to", "\(second + 60)s"] + options)
    }
}

/// Outputs never overwrite inputs (`run s.json --record-events s.json` wrote the event
/// log over the scenario): every output file that exists already is compared with every
/// input by file identity (device and inode), so another spelling of the path, a
/// symbolic link or a hard link is caught too. Checked before any work starts.
enum InputGuard {
    /// `role` names the input (`the scenario`, `a shard's report`); `outputs` are the
    /// files a command would write, each with the option that named it.
    static func check(inputs: [(path: String, role: String)], outputs: [(option: String, file: String)]) throws(CLIError) {
        for output in outputs {
            var written = stat()
            guard stat(output.file, &written) == 0 else { continue }
            for input in inputs {
                var read = stat()
                guard stat(input.path, &read) == 0, read.st_dev == written.st_dev, read.st_ino == written.st_ino else { continue }
                throw .input("\(output.option) would overwrite \(Shell.quote(output.file)), which is \(input.role) \(Shell.quote(input.path)); "
                             + "an output never replaces an input: give another path")
            }
        }
    }

    /// The files of a report set under `directory`, each named by `--out DIR`.
    static func set(_ directory: String, _ names: [String]) -> [(option: String, file: String)] {
        names.map { (option: "--out \(Shell.quote(directory))", file: "\(directory)/\($0)") }
    }
}
