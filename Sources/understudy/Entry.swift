import ArgumentParser
import UnderstudyCheck
import UnderstudyCLI

@main
struct Entry {
    static func main() async {
        // Before any other thread allocates. Only for `check`, which parses answers of any size one after
        // the other; the mock's request threads keep a heap each.
        if CommandLine.arguments.dropFirst().first == "check" { Memory.shareOneHeap() }
        await Understudy.main()
    }
}
