#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes whole files atomically: a reader of `path` sees either the old contents or
/// the new ones, never a half-written file.
///
/// Rules:
/// - The bytes go to a fresh temporary file created with `mkstemp` in the target's own
///   directory (`.<name>.tmp-XXXXXX`, so the rename never crosses file systems), are
///   flushed with `fsync`, get mode 0644, and the file is then `rename`d over `path`
///   (atomic in POSIX). The directory is `fsync`ed afterwards on a best-effort basis.
/// - Missing intermediate directories are created.
/// - On any failure the temporary file is removed and ``Error`` is thrown; `path` keeps
///   its previous contents.
/// - A symbolic link at `path` is replaced by the file, not followed.
public enum AtomicFile {
    /// A failed step of an atomic write, with the system's error number.
    public struct Error: Swift.Error, Equatable, CustomStringConvertible {
        /// The step that failed: `createDirectory`, `createTemporary`, `write`, `sync`,
        /// `rename`, or `invalidPath`.
        public let operation: String
        public let path: String
        /// `errno` at the failure (0 when not a system call).
        public let code: Int32

        public var description: String {
            let reason = code == 0 ? "invalid path" : String(cString: strerror(code))
            return "cannot write \(path) (\(operation)): \(reason)"
        }
    }

    /// Atomically replaces the file at `path` with `contents` encoded as UTF-8.
    /// - Complexity: O(n) for n bytes, plus two `fsync`s.
    public static func write(_ contents: String, to path: String) throws {
        try write(bytes: Array(contents.utf8), to: path)
    }

    /// Atomically replaces the file at `path` with `bytes`.
    /// - Complexity: O(n) for n bytes, plus two `fsync`s.
    public static func write(bytes: [UInt8], to path: String) throws {
        let (directory, name) = split(path)
        guard !name.isEmpty, name != ".", name != ".." else {
            throw Error(operation: "invalidPath", path: path, code: 0)
        }
        try makeDirectories(directory, for: path)

        let stem = name.utf8.count <= 200 ? name : "fleetsim"
        var template = Array("\(directory)/.\(stem).tmp-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw Error(operation: "createTemporary", path: path, code: errno) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)

        func fail(_ operation: String, _ code: Int32, closing: Bool) -> Error {
            if closing { _ = close(fd) }
            _ = unlink(temporary)
            return Error(operation: operation, path: path, code: code)
        }

        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Glue.write(fd, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw fail("write", errno, closing: true)
            }
            written += result
        }
        guard fchmod(fd, 0o644) == 0 else { throw fail("write", errno, closing: true) }
        guard fsync(fd) == 0 else { throw fail("sync", errno, closing: true) }
        guard close(fd) == 0 else { throw fail("write", errno, closing: false) }
        guard rename(temporary, path) == 0 else { throw fail("rename", errno, closing: false) }

        let directoryFD = open(directory, O_RDONLY)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            _ = close(directoryFD)
        }
    }

    /// `mkdir -p directory` (mode 0755 before the umask).
    static func makeDirectories(_ directory: String, for path: String) throws {
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 {
                let code = errno
                guard code == EEXIST else { throw Error(operation: "createDirectory", path: path, code: code) }
                var status = stat()
                guard stat(prefix, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                    throw Error(operation: "createDirectory", path: path, code: ENOTDIR)
                }
            }
            prefix += "/"
        }
    }

    /// The directory (`"."` when none, `"/"` for the root) and the last component.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}

/// The C `write`, under a name that does not collide with ``AtomicFile/write(_:to:)``.
private enum Glue {
    static func write(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.write(fd, pointer, count)
        #elseif canImport(Musl)
        return Musl.write(fd, pointer, count)
        #else
        return Darwin.write(fd, pointer, count)
        #endif
    }
}
