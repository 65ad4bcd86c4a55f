#!/usr/bin/env python3
"""xterm_oracle.py: what a real xterm shows for a byte stream, as vtscreen/1.

    xterm_oracle.py case ID... [-o DIR]      corpus cases of testdata/vt/index.json
    xterm_oracle.py file FILE COLS ROWS [--onlcr] [-o OUT.json]

Needs xterm (Debian's xterm 379 was used) and an X server on $DISPLAY, for
example `Xvfb :99 &` and DISPLAY=:99. Run from the repository root.

How it reads the screen: xterm runs a small program on its pty that puts
the pty in raw mode (no ONLCR: "onlcr" cases are converted first, as the
corpus harness does), writes the stream, asks for the cursor (CPR, CSI 6n),
the modes DECTCEM (?25), DECOM (?6), DECLRMM (?69) and the alternate screen
(?47, ?1047, ?1049) with DECRQM, and the margins with DECRQSS (DECSTBM,
DECSLRM), and then sends MC (CSI i, print screen), which has xterm write
its screen to printerCommand, and CSI 10 i, xterm's XHTML screen dump.

The text comes from the printer: printerExtent: true prints the whole
screen rather than the scrolling region, precompose: false keeps combining
marks as written (xterm would store NFC otherwise), and xterm prints a wide
character followed by U+FFFF for its right half, which gives "width": 2.
The attributes come from the XHTML dump (classes for bold, italic,
underline, strike-through; inverse as swapped colours, dim as two thirds of
the foreground; default colours chosen outside the 256-colour palette so
they are told apart), because the printer's own SGRs (printAttributes: 2)
are not emitted when the attributes go back to none; they are used only to
tell inverse from swapped colours when neither colour is a default one.
boldColors: false keeps bold from brightening colours 0-7 in the dump.
Hidden (SGR 8) characters print as blanks.

xterm's own defaults are kept for everything else, in particular c132:
false (DECCOLM, ?3, is ignored unless it is true; the menu calls it "Allow
80/132 Column Switching") and titeInhibit: false (?47, ?1047 and ?1049
switch screens). Extra xterm arguments can follow "--".
"""
import json, os, re, subprocess, sys, tempfile, unicodedata

XTERM_ARGS = [
    "-u8", "-xrm", "XTerm*printAttributes: 2", "-xrm", "XTerm*printerExtent: true",
    "-xrm", "XTerm*printerFormFeed: false", "-xrm", "XTerm*precompose: false",
    "-xrm", "XTerm*boldColors: false",
]

PROBE = r'''
import os, sys, time, tty
inp, out = sys.argv[1], sys.argv[2]
fd = os.open("/dev/tty", os.O_RDWR)
tty.setraw(fd)
data = open(inp, "rb").read()
for i in range(0, len(data), 256):
    os.write(fd, data[i:i + 256])
time.sleep(0.3)
qs = [b"\x1b[6n", b"\x1b[?25$p", b"\x1b[?6$p", b"\x1b[?69$p", b"\x1b[?47$p",
      b"\x1b[?1047$p", b"\x1b[?1049$p", b"\x1bP$qr\x1b\\", b"\x1bP$qs\x1b\\"]
rep = b""
for q in qs:
    os.write(fd, q)
    end = b"R" if q == qs[0] else (b"y" if q.endswith(b"p") else b"\x1b\\")
    got, t = b"", time.time() + 3
    while not got.endswith(end) and time.time() < t:
        got += os.read(fd, 1)
    rep += got + b"\n"
open(out, "wb").write(rep)
os.write(fd, b"\x1b[i\x1b[10i")
time.sleep(1)
'''


DEFAULT_FG, DEFAULT_BG = (0xd1, 0xd2, 0xd3), (0x21, 0x22, 0x23)  # in no palette


def run_xterm(data, cols, rows, extra):
    with tempfile.TemporaryDirectory() as d:
        inp, scr, rep, probe = (os.path.join(d, n) for n in ("in", "screen", "replies", "probe.py"))
        open(inp, "wb").write(data)
        open(probe, "w").write(PROBE)
        subprocess.run(["xterm", "-geometry", "%dx%d" % (cols, rows),
                        "-fg", "#%02x%02x%02x" % DEFAULT_FG, "-bg", "#%02x%02x%02x" % DEFAULT_BG,
                        "-xrm", "XTerm*printerCommand: cat > " + scr] + XTERM_ARGS + extra +
                       ["-e", sys.executable, probe, inp, rep],
                       check=True, timeout=60, cwd=d, env=dict(os.environ, LC_ALL="C.UTF-8"))
        html = [f for f in os.listdir(d) if f.endswith(".xhtml")]
        return (open(scr, "rb").read().decode("utf-8"), open(rep, "rb").read().decode("latin-1"),
                open(os.path.join(d, html[0]), encoding="utf-8").read())


def palette():
    """xterm's default 256 colours, as (r, g, b)."""
    base = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
            (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0),
            (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255)]
    lv = [0, 95, 135, 175, 215, 255]
    cube = [(lv[i // 36], lv[i // 6 % 6], lv[i % 6]) for i in range(216)]
    grey = [(8 + 10 * i,) * 3 for i in range(24)]
    return base + cube + grey


PALETTE = palette()


def close(pct, rgb, scale=1.0):
    return all(abs(p - c * scale * 100 / 255) < 0.006 for p, c in zip(pct, rgb))


def colour(pct, default):
    """A displayed colour (percentages) as vtscreen: None for the default,
    a palette index, or #rrggbb; and whether it is the 2/3 of one (dim)."""
    for scale, dim in ((1.0, False), (2.0 / 3.0, True)):
        if close(pct, default, scale):
            return None, dim
        for i, rgb in enumerate(PALETTE):
            if close(pct, rgb, scale):
                return i, dim
    return "#%02x%02x%02x" % tuple(round(p * 255 / 100) for p in pct), False


SPAN_RE = re.compile(r"<span class='([^']*)' style='color: rgb\(([^)]*)\); background: rgb\(([^)]*)\)'>(.*?)</span>", re.S)


def html_rows(html):
    """The attributes of each displayed character, row by row."""
    pre = html[html.index("<pre>") + 5:html.index("</pre>")]
    rows = []
    for line in pre.split("\n"):
        cells = []
        for cls, fg, bg, txt in SPAN_RE.findall(line):
            cls = cls.split()
            fg = tuple(float(x.strip(" %")) for x in fg.split(","))
            bg = tuple(float(x.strip(" %")) for x in bg.split(","))
            txt = txt.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&#39;", "'").replace("&amp;", "&")
            for ch in txt:
                cells.append((cls, fg, bg))
        rows.append(cells)
    return rows


def cell_attrs(cls, fgp, bgp, printed_inverse):
    """vtscreen keys of one cell from the HTML dump: classes bd, it, ul, st,
    lu (underline and strike) and bl; inverse shows as swapped colours,
    dim as two thirds of the foreground."""
    inverse = close(fgp, DEFAULT_BG) or close(bgp, DEFAULT_FG) or close(bgp, DEFAULT_FG, 2 / 3)
    plain = close(bgp, DEFAULT_BG) or close(fgp, DEFAULT_FG) or close(fgp, DEFAULT_FG, 2 / 3)
    if not inverse and not plain:  # two palette colours: only the printer tells
        inverse = printed_inverse
    if inverse:
        fgp, bgp = bgp, fgp
    fg, dim = colour(fgp, DEFAULT_FG)
    bg, _ = colour(bgp, DEFAULT_BG)
    names = []
    if "bd" in cls:
        names.append("bold")
    if dim:
        names.append("dim")
    if "it" in cls:
        names.append("italic")
    if "ul" in cls or "lu" in cls:
        names.append("underline")
    if "bl" in cls:
        names.append("blink")
    if inverse:
        names.append("inverse")
    if "st" in cls or "lu" in cls:
        names.append("strikethrough")
    out = {}
    if fg is not None:
        out["fg"] = fg
    if bg is not None:
        out["bg"] = bg
    if names:
        out["attrs"] = names
    return out


SGR_RE = re.compile(r"\x1b\[([0-9;:]*)m")


def parse_screen(text, html, rows):
    """Text (with combining marks and wide characters) from the printer,
    attributes from the HTML dump (the printer skips an SGR when the
    attributes return to none, so its SGRs only say where inverse starts)."""
    lines = text.split("\n")
    attrs = html_rows(html)
    out_text, cells = [], []
    for r in range(rows):
        line = lines[r].rstrip("\r") if r < len(lines) else ""
        line = re.sub(r"\x1b#[3-6]", "", line)
        hrow = attrs[r] if r < len(attrs) else []
        col, hi, chars, inv = 0, 0, [], False
        i = 0
        while i < len(line):
            m = SGR_RE.match(line, i)
            if m:
                inv = "7" in m.group(1).split(";")
                i = m.end()
                continue
            ch = line[i]
            i += 1
            if ch == "\uffff":  # xterm prints the right half of a wide character so
                col += 1
                continue
            if unicodedata.category(ch) in ("Mn", "Me"):
                if chars:
                    chars[-1] += ch
                    if cells and cells[-1][:2] == [r, col - 1 - (cells[-1][2].get("width", 1) - 1)]:
                        cells[-1][2]["ch"] += ch
                continue
            j = i  # the marks of a wide character may come before its U+FFFF
            while j < len(line) and unicodedata.category(line[j]) in ("Mn", "Me"):
                j += 1
            wide = j < len(line) and line[j] == "\uffff"
            chars.append(ch)
            cell = cell_attrs(*hrow[hi], inv) if hi < len(hrow) else {}
            hi += 1
            if ch == " ":
                cell.pop("fg", None)  # invisible on a blank
            if wide:
                cell["width"] = 2
            if cell:
                cells.append([r, col, dict(ch=ch, **cell)])
            col += 1
        # Blanks past the printed text carry attributes too (an erase with
        # a background colour): the HTML dump shows them.
        while hi < len(hrow):
            cell = cell_attrs(*hrow[hi], False)
            cell.pop("fg", None)
            if cell:
                cells.append([r, col, dict(ch=" ", **cell)])
            hi += 1
            col += 1
        out_text.append("".join(chars).rstrip(" "))
    return out_text, cells


def parse_replies(rep, rows):
    lines = rep.split("\n")
    m = re.search(r"\[(\d+);(\d+)R", lines[0])
    row, col = int(m.group(1)) - 1, int(m.group(2)) - 1

    def mode(i):
        m = re.search(r"\[\?\d+;(\d)\$y", lines[i])
        return m and m.group(1) == "1"

    visible, origin, lrmm = mode(1), mode(2), mode(3)
    alt = mode(4) or mode(5) or mode(6)
    m = re.search(r"P1\$r(\d+);(\d+)r", lines[7])
    top = int(m.group(1)) - 1 if m else 0
    m = re.search(r"P1\$r(\d+);(\d+)s", lines[8])
    left = int(m.group(1)) - 1 if m else 0
    if origin:  # CPR counts from the margins in origin mode (DECOM)
        row += top
        col += left if lrmm else 0
    return {"row": row, "col": col, "visible": visible, "pending_wrap": None}, alt


def oracle(data, cols, rows, extra):
    text, rep, html = run_xterm(data, cols, rows, extra)
    out_text, cells = parse_screen(text, html, rows)
    cursor, alt = parse_replies(rep, rows)
    version = subprocess.run(["xterm", "-version"], capture_output=True, text=True).stdout.strip()
    return {"format": "vtscreen/1",
            "producer": "%s via testdata/vt/xterm/xterm_oracle.py (printer, XHTML dump, CPR, DECRQM and DECRQSS replies)" % version,
            "xterm_args": XTERM_ARGS + extra,
            "cols": cols, "rows": rows, "cursor": cursor, "alt_screen": alt,
            "text": out_text, "cells": cells}


def dumps(s):
    """vtscreen/1 JSON with one row of text or one cell a line."""
    out = []
    for k, v in s.items():
        if k in ("text", "cells") and v:
            items = ",\n  ".join(json.dumps(x, ensure_ascii=False) for x in v)
            out.append(' "%s": [\n  %s\n ]' % (k, items))
        else:
            out.append(' "%s": %s' % (k, json.dumps(v, ensure_ascii=False)))
    return "{\n" + ",\n".join(out) + "\n}\n"


def case_input(c):
    data = b"".join(open(os.path.join("testdata/vt", f), "rb").read() for f in c["input"])
    if c["feed"] == "onlcr":
        data = data.replace(b"\n", b"\r\n")
    return data


def main(argv):
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    out = None
    if "-o" in argv:
        out = argv[argv.index("-o") + 1]
        del argv[argv.index("-o"):argv.index("-o") + 2]
    if argv[0] == "case":
        cases = {c["id"]: c for c in json.load(open("testdata/vt/index.json"))["cases"]}
        for cid in argv[1:]:
            c = cases[cid]
            s = oracle(case_input(c), c["cols"], c["rows"], extra)
            s = dict(case=cid, **s)
            body = dumps(s)
            if out:
                p = os.path.join(out, cid + ".json")
                os.makedirs(os.path.dirname(p), exist_ok=True)
                open(p, "w").write(body)
                print(p)
            else:
                sys.stdout.write(body)
    elif argv[0] == "file":
        data = open(argv[1], "rb").read()
        if "--onlcr" in argv:
            data = data.replace(b"\n", b"\r\n")
        s = dumps(oracle(data, int(argv[2]), int(argv[3]), extra))
        if out:
            open(out, "w").write(s)
        else:
            sys.stdout.write(s)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
