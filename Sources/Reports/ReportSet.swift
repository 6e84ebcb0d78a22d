#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the files of one run (report.json, report.md, report.html, junit.xml; or an
/// explore summary) as one set: a reader of the directory sees the old set or the new
/// one, never a mix, and a failure part-way leaves the old set as it was. The
/// directory itself stays: its inode, owner, group and mode (a shell inside it stays in
/// a directory that exists).
///
/// Rules (docs/report.md, "Written as one set"):
/// - Every file is written (and `fsync`ed) into a fresh temporary directory beside the
///   target, `.<name>.fleetsim-set-<pid>-XXXXXX`, so nothing crosses a file system.
/// - A target that does not exist yet is the temporary directory renamed. An existing
///   one keeps its directory and gets the new set in three steps, each leaving a whole
///   set at the target's path:
///   1. the target's other files (not of the set) are hard-linked into the new directory,
///      which is then swapped with the target in one step (Linux
///      `renameat2(RENAME_EXCHANGE)`): the path shows the new directory, new set;
///   2. the old directory, now at the temporary name where no reader looks, gets the
///      new set's files as hard links in place of the old ones;
///   3. it is swapped back: the path shows the old directory again, with the new set.
///   The new directory, at the temporary name, is then removed (its links only). If
///   step 2 or 3 fails, the new directory stays at the path, with the whole new set.
/// - Where no swap is possible (the target holds a subdirectory, is a mount point, or
///   the system has no exchange), each file is renamed into place one by one: each
///   file is whole, the set is not.
/// - On any failure the temporary directory is removed and the error thrown.
/// - Temporary directories of earlier processes that no longer run, and the
///   `.<file>.tmp-XXXXXX` files of interrupted single-file writes of the set's names,
///   are removed first.
/// - The parent directory must take a new directory: ``parentProblem(_:)`` says why it
///   cannot, for a check before any work starts.
public enum ReportSet {
    /// Writes `files` (name, bytes) as one set into `directory`. `writeFile` writes
    /// one file (a test injects failures through it); `between` is called between the
    /// steps of a swap, where a kill could stop it (a test looks at the directory there).
    /// `moving` (name, path): files already written beside the target (``stagingPath(for:name:)``,
    /// a request log streamed as the run went), renamed into the set with the others;
    /// `dropping`: files of an earlier set that this one lacks (an earlier run's request
    /// log), removed with the swap, never left beside the new set.
    public static func write(_ files: [(name: String, bytes: [UInt8])], to directory: String,
                             moving: [(name: String, path: String)] = [], dropping: Set<String> = [],
                             writeFile: (_ bytes: [UInt8], _ path: String) throws -> Void = { try AtomicFile.write(bytes: $0, to: $1) },
                             between: () -> Void = {}) throws {
        let target = resolved(directory)
        let (parent, base) = AtomicFile.split(target)
        guard !base.isEmpty, base != ".", base != "..", base != "/" else {
            throw AtomicFile.Error(operation: "invalidPath", path: directory, code: 0)
        }
        try AtomicFile.makeDirectories(parent, for: target)
        let prefix = temporaryPrefix(base)
        removeStale(in: parent, prefix: prefix)
        let names = Set(files.map(\.name) + moving.map(\.name))

        var template = Array("\(parent)/\(prefix)\(getpid())-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw AtomicFile.Error(operation: "createTemporary", path: target, code: errno) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        func fail(_ operation: String, _ code: Int32) -> AtomicFile.Error {
            removeFlat(temporary)
            return AtomicFile.Error(operation: operation, path: target, code: code)
        }
        do {
            for file in files { try writeFile(file.bytes, "\(temporary)/\(file.name)") }
            for file in moving where rename(file.path, "\(temporary)/\(file.name)") != 0 {
                throw AtomicFile.Error(operation: "rename", path: file.path, code: errno)
            }
        } catch {
            removeFlat(temporary)
            throw error
        }
        let files = files.map(\.name) + moving.map(\.name)
        var status = stat()
        let mask = umask(0)
        umask(mask)
        let exists = lstat(target, &status) == 0
        guard chmod(temporary, exists ? status.st_mode & 0o7777 : 0o755 & ~mask) == 0 else { throw fail("createTemporary", errno) }

        if !exists {
            if rename(temporary, target) == 0 { syncDirectory(parent); return }
            let code = errno
            guard code == EEXIST || code == ENOTEMPTY else { throw fail("rename", code) }
        }
        let entries = list(target)
        let stale = entries.filter { e in names.contains { e.hasPrefix(".\($0).tmp-") } }
        for e in stale { _ = unlink("\(target)/\(e)") }
        let others = entries.filter { !names.contains($0) && !stale.contains($0) && !dropping.contains($0) }
        if let exchange = Exchange.function, others.allSatisfy({ carry($0, from: target, to: temporary) }),
           exchange(AT_FDCWD, temporary, AT_FDCWD, target, Exchange.flag) == 0 {
            // The target's path now shows the new directory; the old one is at `temporary`.
            syncDirectory(parent)
            between()
            let old = temporary, new = target
            let refilled = files.allSatisfy { name in
                let staged = "\(old)/.\(name).fleetsim-link"
                _ = unlink(staged)
                defer { between() }
                return link("\(new)/\(name)", staged) == 0 && rename(staged, "\(old)/\(name)") == 0
            }
            if refilled {
                for name in dropping { _ = unlink("\(old)/\(name)") }
                syncDirectory(old)
                if exchange(AT_FDCWD, old, AT_FDCWD, target, Exchange.flag) == 0 {
                    // The old directory is back at the path, with the new set; `temporary`
                    // now names the new directory, whose files are all linked there too.
                    between()
                    removeFlat(temporary)
                    syncDirectory(parent)
                    return
                }
            }
            // The new directory stays at the path with the whole new set; the old one's
            // other files are linked into it, so removing the old directory loses nothing.
            removeFlat(old)
            syncDirectory(parent)
            return
        }
        // No swap: each file in place, one at a time.
        for name in files where rename("\(temporary)/\(name)", "\(target)/\(name)") != 0 {
            throw fail("rename", errno)
        }
        for name in dropping { _ = unlink("\(target)/\(name)") }
        removeFlat(temporary)
        syncDirectory(target)
    }

    /// Where a file of the set is written before the set (a request log streamed as the run
    /// goes): beside the target, `.<name>.fleetsim-set-<pid>-<file>` (the parent created
    /// if need be), so ``write(_:to:moving:writeFile:between:)`` renames it into the set
    /// without crossing a file system, and a later write removes it if this process died.
    public static func stagingPath(for directory: String, name: String) throws -> String {
        let target = resolved(directory)
        let (parent, base) = AtomicFile.split(target)
        try AtomicFile.makeDirectories(parent, for: target)
        return "\(parent)/\(temporaryPrefix(base))\(getpid())-\(name)"
    }

    /// `.<name>.fleetsim-set-`: the temporary directories' names beside the target.
    static func temporaryPrefix(_ base: String) -> String {
        ".\(base.utf8.count <= 100 ? base : "fleetsim").fleetsim-set-"
    }

    /// Why a set cannot be written to `directory` because of where it is, or nil: the
    /// directory that holds it must take the temporary directory (tried: one is made and
    /// removed), and the root has no such directory. A parent that does not exist yet is
    /// nil here: it is created with the target, which a check of the target tries.
    public static func parentProblem(_ directory: String) -> String? {
        let target = resolved(directory)
        let (parent, base) = AtomicFile.split(target)
        guard !base.isEmpty, base != ".", base != "..", base != "/" else {
            return "the root directory cannot be swapped for a new set; give a directory under it"
        }
        var status = stat()
        guard stat(parent, &status) == 0 else { return nil }
        var template = Array("\(parent)/\(temporaryPrefix(base))\(getpid())-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else {
            return "the directory that holds it, '\(parent)', cannot take a new directory (\(String(cString: strerror(errno)))), "
                + "and the reports are written there first, to replace the old ones as one set"
        }
        template.withUnsafeBufferPointer { _ = rmdir($0.baseAddress!) }
        return nil
    }

    /// `path` without trailing slashes, and through a symbolic link at its end (so the
    /// directory it points to is replaced, not the link).
    static func resolved(_ path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.hasSuffix("/") { p = p.dropLast() }
        guard let real = realpath(String(p), nil) else { return String(p) }
        defer { free(real) }
        return String(cString: real)
    }

    /// Puts `name` of the old directory into the new one without copying: a hard link
    /// for a regular file, the same target for a symbolic link; false for anything else
    /// (a subdirectory cannot be linked: the caller falls back to file-by-file renames).
    static func carry(_ name: String, from old: String, to new: String) -> Bool {
        var status = stat()
        guard lstat("\(old)/\(name)", &status) == 0 else { return false }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return link("\(old)/\(name)", "\(new)/\(name)") == 0
        case S_IFLNK:
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink("\(old)/\(name)", &buffer, buffer.count - 1)
            guard n >= 0 else { return false }
            return symlink(String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self), "\(new)/\(name)") == 0
        default: return false
        }
    }

    /// Removes the temporary directories of `prefix` whose process no longer runs.
    static func removeStale(in parent: String, prefix: String) {
        for entry in list(parent) where entry.hasPrefix(prefix) {
            let rest = entry.dropFirst(prefix.utf8.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]) else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                // A staged file (``stagingPath(for:name:)``) or a temporary directory.
                if unlink("\(parent)/\(entry)") != 0 { removeFlat("\(parent)/\(entry)") }
            }
        }
    }

    /// The names in a directory, without `.` and `..`; empty when it cannot be read.
    static func list(_ directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes a directory of files (what this type creates: no subdirectories).
    static func removeFlat(_ directory: String) {
        for name in list(directory) { _ = unlink("\(directory)/\(name)") }
        _ = rmdir(directory)
    }

    static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY)
        if fd >= 0 {
            _ = fsync(fd)
            _ = close(fd)
        }
    }
}

/// `renameat2(…, RENAME_EXCHANGE)`, looked up at run time: the C library declares it
/// only for GNU sources, which Swift does not import. Nil where there is none.
private enum Exchange {
    typealias Function = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    /// `RENAME_EXCHANGE` of linux/fs.h.
    static let flag: UInt32 = 1 << 1

    static let function: Function? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
        #else
        return nil
        #endif
    }()
}
