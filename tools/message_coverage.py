#!/usr/bin/python3
"""Lists the importer's user errors that no test exercises.

Every `SourceError(loc, "..." ...)` in the given sources is a message a user can meet; a
test exercises it when some file under the test folders holds a piece of its text. The
piece looked for is the message's longest string literal (adjacent ones joined, escapes
undone; its first 30 characters suffice, as a CHECK line may hold part of it), so a
message assembled from names and literals is still found, and one sharing a common
opening with another is not taken for it.

  message_coverage.py --src src/mlir --tests test [--allow FILE] [--docs PAGE] [--table]

--docs names a page that must quote every message (its table: --table prints it).
--allow names a file of `path:fragment  # why` lines: messages known to be unreachable
from a file (an MLIR verifier refuses the input first). Exit status 1 when a message is
neither tested nor allowed, 0 otherwise; each such message is printed with its place.
"""
import argparse
import os
import re
import sys

LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')


def messages(src):
    """(file, line, [literals]) for each SourceError thrown in src."""
    out = []
    for name in sorted(os.listdir(src)):
        if not name.endswith((".cpp", ".h")):
            continue
        text = open(os.path.join(src, name), encoding="utf-8").read()
        for m in re.finditer(r"\bSourceError\s*\(", text):
            # The call's arguments: up to the parenthesis that closes it.
            depth, i, in_str = 1, m.end(), False
            while i < len(text) and depth:
                c = text[i]
                if in_str:
                    if c == "\\":
                        i += 1
                    elif c == '"':
                        in_str = False
                elif c == '"':
                    in_str = True
                elif c in "([{":
                    depth += 1
                elif c in ")]}":
                    depth -= 1
                i += 1
            args = text[m.end():i - 1]
            # Adjacent literals are one (C++ joins "a" "b"); a test may check any part
            # of a message, so each joined literal is a piece to look for.
            joined = re.sub(r'"\s*"', "", args)
            lits = [bytes(s, "utf-8").decode("unicode_escape") for s in LITERAL.findall(joined)]
            if lits:
                out.append((name, text.count("\n", 0, m.start()) + 1, lits))
    return out


def corpus(roots):
    parts = []
    for root in roots:
        for d, _, files in os.walk(root):
            for f in files:
                try:
                    parts.append(open(os.path.join(d, f), encoding="utf-8", errors="replace").read())
                except OSError:
                    pass
    return "\n".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", required=True)
    ap.add_argument("--tests", action="append", required=True)
    ap.add_argument("--allow", default="")
    ap.add_argument("--docs", default="", help="a page that must quote every message too (docs/linalg.md)")
    ap.add_argument("--table", action="store_true", help="print the messages as the page's table and stop")
    a = ap.parse_args()
    if a.table:
        # One row a message: its text, the names and values it is built from shown as
        # `..`, and the file that gives it; sorted so that edits elsewhere keep the rows.
        rows = set()
        for name, _, lits in messages(a.src):
            text = " .. ".join(p.strip() for p in lits if p.strip()).replace("|", "\\|")
            rows.add((name, text))
        for name, text in sorted(rows):
            print("| %s | `%s` |" % (name, text.replace("`", "'")))
        return 0
    text = corpus(a.tests)
    allowed = []
    if a.allow:
        for line in open(a.allow, encoding="utf-8"):
            line = line.split("#", 1)[0].strip()
            if line:
                allowed.append(line)
    found = messages(a.src)
    missing = 0
    for name, line, lits in found:
        pieces = [p.strip() for p in lits if len(p.strip()) >= 16]
        if not pieces:
            continue
        # The longest piece is the one that tells this message from others (two share
        # "unsupported operation '", each has its own tail).
        piece = max(pieces, key=len)
        if piece in text or piece[:30] in text:
            continue
        if any(al == name + ":" + piece or (al.startswith(name + ":") and al[len(name) + 1:] in piece) for al in allowed):
            continue
        missing += 1
        print("%s:%d: no test holds \"%s\"" % (name, line, piece))
    if a.docs:
        page = open(a.docs, encoding="utf-8").read().replace("\\|", "|").replace("'", "`")
        for name, line, lits in found:
            pieces = [p.strip().replace("'", "`") for p in lits if len(p.strip()) >= 16]
            if pieces and not all(p in page for p in pieces):
                missing += 1
                print("%s:%d: %s does not quote \"%s\"" % (name, line, a.docs, max(pieces, key=len)))
    print("%d of %d messages exercised or allowed" % (len(found) - missing, len(found)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
