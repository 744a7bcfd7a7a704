import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How far the current thread's stack may still grow: evaluation stops with a finding before it overflows.
///
/// A depth count alone cannot know the stack it runs on: a debug build's frames are ten times a release build's,
/// and a Dispatch thread has 512 KB where the main thread has 8 MB. The guard reads the thread's stack bounds once
/// and keeps a margin (a quarter of the stack, at least 128 KB) for building findings and for the regular
/// expression engine.
struct StackGuard {
    /// The lowest address evaluation may reach (stacks grow down on every platform Swift supports).
    private let floor: UInt

    init() {
        let here = Self.currentAddress()
        // glibc reads the main thread's bounds from /proc/self/maps (a hundred microseconds): read them once.
        let bounds = Thread.isMainThread ? Self.mainThreadBounds : Self.bounds()
        guard let (low, size) = bounds, low < here else {
            // Unknown bounds: assume the smallest common stack, 512 KB, from here.
            floor = here &- 384 * 1024
            return
        }
        floor = low + UInt(max(128 * 1024, size / 4))
    }

    /// Whether the stack has grown past the margin.
    var isExhausted: Bool { Self.currentAddress() < floor }

    @inline(never)
    private static func currentAddress() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    #if canImport(Glibc) || canImport(Musl)
        private typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
        private static let linuxGetAttributes: GetAttributes? = dlsym(nil, "pthread_getattr_np").map {
            unsafeBitCast($0, to: GetAttributes.self)
        }
    #endif

    private static let mainThreadBounds = bounds()

    /// The low end and the size of the current thread's stack.
    private static func bounds() -> (low: UInt, size: Int)? {
        #if canImport(Darwin)
            let thread = pthread_self()
            let high = UInt(bitPattern: pthread_get_stackaddr_np(thread))
            let size = pthread_get_stacksize_np(thread)
            return (high - UInt(size), size)
        #elseif canImport(Glibc) || canImport(Musl)
            // `pthread_getattr_np` is a GNU extension the C module does not export: looked up once, by name.
            guard let getAttributes = linuxGetAttributes else { return nil }
            let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
            defer { attributes.deallocate() }
            guard getAttributes(pthread_self(), attributes) == 0 else { return nil }
            defer { pthread_attr_destroy(attributes) }
            var address: UnsafeMutableRawPointer?
            var size = 0
            guard pthread_attr_getstack(attributes, &address, &size) == 0, let address else { return nil }
            return (UInt(bitPattern: address), size)
        #else
            return nil
        #endif
    }
}
