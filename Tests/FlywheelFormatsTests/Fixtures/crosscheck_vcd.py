#!/usr/bin/env python3
# Independent cross-check: net quarter steps, valid and invalid transitions of one A/B pair in a VCD.
# Usage: crosscheck_vcd.py FILE.vcd A_NAME B_NAME  ->  (net, valid, invalid)
import sys
def run(path, a, b):
    ids={}; t=None; vals={}; cur=None; q=0; inv=0; val=0
    hdr=True
    phase={(0,0):0,(1,0):1,(1,1):2,(0,1):3}
    pending={}
    def flush():
        nonlocal cur,q,inv,val
        if not pending: return
        if cur is None:
            vals.update(pending); pending.clear()
            if 'a' in vals and 'b' in vals: cur=(vals['a'],vals['b'])
            return
        new=(pending.get('a',cur[0]),pending.get('b',cur[1])); pending.clear()
        if new==cur: return
        d=(phase[new]-phase[cur])%4
        if d==1: q+=1; val+=1
        elif d==3: q-=1; val+=1
        else: inv+=1
        cur=new
    for line in open(path):
        toks=line.split()
        if hdr:
            if line.startswith('$var'):
                ids[toks[3]]=' '.join(toks[4:-1])
            if '$enddefinitions' in line: hdr=False
            continue
        for tok in toks:
            if tok[0]=='#': flush(); continue
            if tok[0] in '01':
                n=ids.get(tok[1:])
                if n==a: pending['a']=int(tok[0])
                elif n==b: pending['b']=int(tok[0])
    flush()
    return q,val,inv
print(run(sys.argv[1],sys.argv[2],sys.argv[3]))
