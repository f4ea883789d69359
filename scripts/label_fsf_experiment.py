#!/usr/bin/env python3
"""label.py IN OUT NODES: FSF search score (side to move, cp; mate -> +-30000) per FEN."""
import subprocess, sys, re
FSF="/tmp/fairy-stockfish/stockfish"; INI="/work/main/scripts/antichess_variants.ini"
inp, out, nodes = sys.argv[1], sys.argv[2], int(sys.argv[3])
p = subprocess.Popen([FSF], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
def send(s): p.stdin.write(s+"\n"); p.stdin.flush()
def wait(tok):
    ls=[]
    while True:
        l=p.stdout.readline()
        if not l: raise SystemExit("fsf died")
        ls.append(l)
        if l.startswith(tok): return ls
send("uci"); wait("uciok")
send(f"setoption name VariantPath value {INI}"); send("setoption name UCI_Variant value antichess6170")
send("isready"); wait("readyok")
with open(out, "w") as o:
    for line in open(inp):
        f = line.rstrip("\n").split("\t")
        fen = f[0]
        send(f"position fen {fen}"); send(f"go nodes {nodes}")
        score = None
        for l in wait("bestmove"):
            m = re.search(r" score (cp|mate) (-?\d+)", l)
            if m: score = int(m.group(2)) if m.group(1)=="cp" else (30000 if int(m.group(2))>0 else -30000)
        if score is None: continue
        o.write("\t".join(f[:2] + [str(score)] + f[2:]) + "\n"); o.flush()
