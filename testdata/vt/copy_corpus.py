#!/usr/bin/env python3
"""copy_corpus.py: refresh testdata/vt from the shared vt-corpus.

Run from the repository root:  python3 testdata/vt/copy_corpus.py /path/to/vt-corpus
Copies the screen cases of index.json (inputs, expectations, each source's
NOTICE.md and licence), libvterm's JSON steps, and a diverse sample of the
Ghostty fuzz inputs into testdata/fuzz/FuzzVT in Go's corpus format.
"""
import base64, hashlib, json, os, shutil, sys

src = sys.argv[1]
dst = "testdata/vt"
keep = ["id", "source", "input", "feed", "cols", "rows", "scrollback",
        "expected_json", "expected_txt", "checks", "note", "agreement"]

def cp(rel):
    os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
    shutil.copyfile(os.path.join(src, rel), os.path.join(dst, rel))

index = json.load(open(os.path.join(src, "index.json")))
cases = []
for c in index["cases"]:
    for rel in c["input"]:
        cp(rel)
    # The .txt is kept only when there is no JSON expectation.
    if c.get("expected_json"):
        cp(c["expected_json"])
        c["expected_txt"] = None
    else:
        cp(c["expected_txt"])
    cases.append({k: c.get(k) for k in keep})
for d in ["alacritty", "xtermjs-escape-files", "vt100-rust", "libvterm", "ghostty-fuzz"]:
    for f in os.listdir(os.path.join(src, d)):
        if f == "NOTICE.md" or f.startswith("LICENSE"):
            cp(os.path.join(d, f))
for f in sorted(os.listdir(os.path.join(src, "libvterm", "steps"))):
    cp(os.path.join("libvterm", "steps", f))
with open(os.path.join(dst, "index.json"), "w") as f:
    json.dump({"format": "vt-cases/1", "source": "vt-corpus index.json (subset of keys)",
               "cases": cases}, f, indent=0)
    f.write("\n")

# Fuzz seeds: every input of the small files, and from stream-cmin the
# inputs spread evenly over distinct sizes, up to 300 in all.
fz = "testdata/fuzz/FuzzVT"
os.makedirs(fz, exist_ok=True)
seeds = []
for name in ["stream-initial.jsonl", "osc-cmin.jsonl", "stream-cmin.jsonl"]:
    rows = [json.loads(l) for l in open(os.path.join(src, "ghostty-fuzz", name))]
    if name == "stream-cmin.jsonl":
        rows.sort(key=lambda r: (len(r["b64"]), r["name"]))
        step = max(1, len(rows) // 256)
        rows = rows[::step][:256]
    seeds += [(name, r) for r in rows]
for name, r in seeds:
    data = base64.b64decode(r["b64"])[1:]  # byte 0 is upstream's mode selector
    # Go's corpus format takes a Go string literal: \x escapes keep
    # every byte as it is.
    lit = '"' + "".join(
        ch if 0x20 <= ord(ch) < 0x7f and ch not in '"\\' else "\\x%02x" % ord(ch)
        for ch in data.decode("latin-1")) + '"'
    body = "go test fuzz v1\n[]byte(%s)\n" % lit
    fn = "ghostty-" + hashlib.sha256(data).hexdigest()[:16]
    with open(os.path.join(fz, fn), "w") as f:
        f.write(body)
print(len(cases), "cases,", len(seeds), "fuzz seeds")
