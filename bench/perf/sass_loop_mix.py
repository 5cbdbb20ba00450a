#!/usr/bin/env python3
import re,sys
# SASS instruction mix of the innermost loops (a backward BRA to an address).
for f in sys.argv[1:]:
    ins=[]
    for l in open(f):
        m=re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_]+)[.\w]*\s*(.*);',l)
        if m: ins.append((int(m.group(1),16),m.group(3),m.group(4)))
    for i,(addr,op,args) in enumerate(ins):
        if op=='BRA':
            t=re.match(r'(?:`\(\.L_x_\d+\)|0x([0-9a-f]+))',args.strip())
            if t and t.group(1):
                tgt=int(t.group(1),16)
                if tgt<addr:
                    body=[o for a,o,_ in ins if tgt<=a<=addr]
                    c={}
                    for o in body: c[o]=c.get(o,0)+1
                    h=c.get('HMMA',0)
                    if h==0: continue
                    print(f"{f.split('/')[-1]}: {len(body)} instrs, HMMA {h}, per 64 HMMA: {len(body)*64/h:.0f};",
                          ", ".join(f"{k} {v}" for k,v in sorted(c.items(),key=lambda x:-x[1])[:8]))
