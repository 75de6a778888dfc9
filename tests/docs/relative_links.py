"""Every relative link in README.md, cmake/README.md and docs/**/*.md resolves:
the file exists and, with a #fragment into a Markdown file, a heading there has
that anchor (GitHub's: lower case, punctuation dropped, spaces as hyphens).
Usage: relative_links.py SOURCE_DIR. Prints each broken link and exits 1."""
import pathlib
import re
import sys


def anchors(path):
    found = set()
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    for line in text.splitlines():
        heading = re.match(r"^#+\s+(.*)", line)
        if heading:
            found.add(re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-"))
    return found


def main(root):
    files = [root / "README.md", root / "cmake" / "README.md", *sorted((root / "docs").rglob("*.md"))]
    broken = []
    for page in files:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for link in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"^[a-z][a-z0-9+.-]*:", link):
                continue  # http:, mailto: and the like
            path, _, fragment = link.partition("#")
            target = (page.parent / path).resolve() if path else page
            where = f"{page.relative_to(root)}: ({link})"
            if not target.exists():
                broken.append(f"{where}: no such file")
            elif fragment and target.suffix == ".md" and fragment not in anchors(target):
                broken.append(f"{where}: no heading with that anchor in {target.relative_to(root)}")
    for line in broken:
        print(line)
    print(f"{len(files)} pages, {len(broken)} broken relative links")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1]).resolve()))
