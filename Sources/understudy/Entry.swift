import ArgumentParser
import UnderstudyCLI

@main
struct Entry {
    static func main() async {
        await Understudy.main()
    }
}
