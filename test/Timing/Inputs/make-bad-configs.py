"""Writes machine configs with fields out of range (argv[1]: dir, argv[2]: a good config)."""
import json,sys
c=json.load(open(sys.argv[2]))
c['clock_ghz']=0
json.dump(c,open(sys.argv[1]+'/zero-clock.json','w'))
c=json.load(open(sys.argv[2]))
c['cores']['aic']=1e20
json.dump(c,open(sys.argv[1]+'/huge-cores.json','w'))
c=json.load(open(sys.argv[2]))
c['dma']['bandwidth_gib_s']['gm_ub']=0
json.dump(c,open(sys.argv[1]+'/zero-bw.json','w'))
c=json.load(open(sys.argv[2]))
c['cores']['aic']=2.5
json.dump(c,open(sys.argv[1]+'/half-core.json','w'))
c=json.load(open(sys.argv[2]))
c['buffers_bytes']['ub']=4096
json.dump(c,open(sys.argv[1]+'/small-ub.json','w'))
