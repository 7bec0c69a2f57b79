source bench/device/env.sh
K=.device-bin/instances/15puzzle/korf100.txt
nvidia-smi --query-gpu=name,clocks.sm --format=csv > $OUT/device.txt
permjit_gpu_tests "[ida]" 2>&1 | tail -5 | tee $OUT/gpu-tests-ida.log
for rec in 88 82 60 53 66 1 2 3; do
  permjit solve problems/puzzle15.toml --instance $K --record $rec --skeleton ida --all-solutions --json >> $OUT/probe.jsonl 2>>$OUT/err.log
done
python3 - <<'P'
import json,os
for l in open(os.environ['OUT']+'/probe.jsonl'):
    r=json.loads(l); print(r['instance'][-12:], r.get('cost'), r['nodes']['evaluated'], round(r['time_s']['search'],3), round(r['time_s']['kernels'],3), round(r['time_s']['host'],3), round(r['time_s']['transfers'],3), r['frontier_nodes'], [(it['limit'], round(it['seconds'],3), round(it['max_block_expanded']/max(1,it['mean_block_expanded']),2)) for it in r['iterations'][-3:]])
P
tail -3 $OUT/err.log
for rec in 88 53 1; do
  permjit solve problems/puzzle15.toml --instance $K --record $rec --skeleton ida --all-solutions --balance static --json >> $OUT/probe-static.jsonl 2>>$OUT/err.log
done
python3 - <<'P'
import json,os
for l in open(os.environ['OUT']+'/probe-static.jsonl'):
    r=json.loads(l); print('static', r.get('cost'), round(r['time_s']['search'],3), round(r['time_s']['kernels'],3), round(r['time_s']['host'],3))
P
