import Foundation

/// Checks an output directory before any work starts, so a bad `--out` costs a
/// second, not a whole simulation.
enum OutputDirectory {
    /// Why reports cannot be written under `path`, or nil when they can.
    ///
    /// The directory, or its nearest existing ancestor when it does not exist yet,
    /// must be a directory in which a file can be created: a probe file is created and
    /// removed at once, which also catches read-only file systems (where `access(2)`
    /// as root says yes). Nothing is created for a path that does not exist yet.
    static func problem(with path: String) -> String? {
        var candidate = path.isEmpty ? "." : path
        var isDirectory: ObjCBool = false
        while !FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory) {
            candidate = parent(of: candidate)
        }
        guard isDirectory.boolValue else {
            return candidate == path ? "it exists and is not a directory" : "'\(candidate)' is a file, not a directory"
        }
        let probe = "\(candidate)/.fleetsim-write-check-\(getpid())"
        let fd = open(probe, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            return candidate == path ? "cannot create a file in it (\(reason))" : "cannot create '\(path)' in '\(candidate)' (\(reason))"
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

    /// Throws the problem as an input error naming the path.
    static func check(_ path: String) throws(CLIError) {
        if let problem = problem(with: path) { throw .input("--out \(path): cannot write there: \(problem)") }
    }
}

/// POSIX shell quoting, so a printed command can be pasted into any shell.
enum Shell {
    /// Characters that never need quoting in a POSIX shell word.
    static let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_".unicodeScalars)

    /// `arg` unchanged when every character is safe, else in single quotes, each `'`
    /// written as `'\''` (POSIX.1-2017, Shell Command Language, 2.2.2 Single-Quotes:
    /// nothing inside single quotes is special).
    static func quote(_ arg: String) -> String {
        if !arg.isEmpty, arg.unicodeScalars.allSatisfy(safe.contains) { return arg }
        return "'" + arg.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    static func command(_ args: [String]) -> String {
        args.map(quote).joined(separator: " ")
    }
}

/// The replay command printed on the console: the window of report.json's `replay`
/// strings (5 min before the violation to 1 min after, in whole seconds), with the
/// binary as invoked and every argument shell-quoted, so it can be pasted as is.
/// (report.json's own strings say `fleetsim` and are not quoted: they must not
/// depend on the machine.)
enum ReplayCommand {
    static func text(executable: String, scenario path: String, seed: UInt64, device: Int64, timeSeconds: Double, options: [String]) -> String {
        let second = Int64((timeSeconds * 1_000_000).rounded()) / 1_000_000
        return Shell.command([executable, "replay", path, "--seed", String(seed), "--device", String(device),
                              "--from", "\(max(0, second - 300))s", "--to", "\(second + 60)s"] + options)
    }
}
