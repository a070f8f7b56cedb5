# Remote calibration round trip (docs/PERFORMANCE.md): 20 reads and 20 sets against a running
# 'tankwatch serve --demo --http 127.0.0.1:18170', each from the POST to the command's final state by polling
# GET /monitor-app/parameter/command every 20 ms. Cars found offline are refused and skipped.
import json, time, urllib.request
B='http://127.0.0.1:18170'
def call(m, path, body=None, tok=None):
    req=urllib.request.Request(B+path, method=m, data=json.dumps(body).encode() if body is not None else None, headers={'content-type':'application/json', **({'Authorization':'Bearer '+tok} if tok else {})})
    return json.load(urllib.request.urlopen(req))
tok=call('POST','/authority-app/logIn',{'account':'admin','password':'admin123','type':0})['data']['access_token']
cars=[c['carId'] for c in call('POST','/monitor-app/realTimeMoitoring/findCars',{'pageSize':50},tok)['data']['list'] if c['online']][:10]
lat=[]
for kind in ['read','set']:
  ts=[]
  for i in range(20):
    car=cars[i%len(cars)]
    t0=time.time()
    body={'carId':car} if kind=='read' else {'carId':car,'params':[{'id':0xF011,'value':i}]}
    r=call('POST','/monitor-app/parameter/'+kind,body,tok)
    if not r['data']: print(r); continue
    cid=r['data']['id']
    while True:
      v=call('GET','/monitor-app/parameter/command?id=%d'%cid,None,tok)['data']
      if v['final']: break
      time.sleep(0.02)
    ts.append((time.time()-t0)*1000)
    assert v['state']=='acknowledged', v
  ts.sort()
  print(kind, 'n=%d median %.0f ms, max %.0f ms'%(len(ts), ts[len(ts)//2], ts[-1]))
