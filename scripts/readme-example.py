"""Checks that the README's code block announced by `<!-- PATH -->` is the file PATH, byte for byte.

Usage: readme-example.py README.md PATH
"""
import sys

readme, path = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
marker = f"<!-- {path} -->\n```swift\n"
start = text.find(marker)
if start < 0:
    sys.exit(f"{readme} has no example announced by <!-- {path} -->")
start += len(marker)
end = text.find("```\n", start)
block = text[start:end]
actual = open(path, encoding="utf-8").read()
if block != actual:
    import difflib
    sys.stdout.writelines(difflib.unified_diff(
        block.splitlines(keepends=True), actual.splitlines(keepends=True), f"{readme} (example)", path))
    sys.exit(f"the example in {readme} is not {path} as it is")
print(f"the example in {readme} is {path}, as CI runs it")
