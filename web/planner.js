// The planner page's script: builds capplan command lines from the form, runs them in the
// WebAssembly build of the command-line tool (web/planner.cpp: capplan_run), and shows the JSON's
// figures as cards and the tool's own HTML report below them. Every figure comes from the tool; this
// script only formats numbers for the cards (each card keeps the JSON value in data-v).
//
// The form's state lives in the address (#model=llama2-7b&task=train&tokens=1e9&gpu=h100-sxm&gpus=8),
// so a view can be shared or bookmarked (a pasted model travels as modeljson=); `today=YYYY-MM-DD` pins
// the date prices are judged against.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const root = document.documentElement;
  let capplan = null;
  let firstResult = true;
  let timer = null;

  // ---- The tool -------------------------------------------------------------------------------
  function run(args) {
    const reply = capplan.ccall('capplan_run', 'string', ['string'], [JSON.stringify(args)]);
    return JSON.parse(reply);
  }
  function runJson(args) {
    const r = run(['--format', 'json', ...globalArgs(), ...args]);
    if (r.exit !== 0) throw new Error(r.stderr.trim() || ('capplan exited with ' + r.exit));
    return { data: JSON.parse(r.stdout), text: r.stdout };
  }
  function globalArgs() {
    const today = state().today;
    return today ? ['--today', today] : [];
  }

  // ---- The form and the address ---------------------------------------------------------------
  const fields = ['model', 'task', 'method', 'tokens', 'epochs', 'gpu', 'gpus', 'all', 'batch', 'imgbatch', 'prompt', 'output', 'weights', 'pcie', 'p2p'];
  // Model id -> "transformer" or "image" (catalog list --kind models).
  const modelKinds = {};
  let pinnedToday = '';
  function state() {
    const task = document.querySelector('input[name=task]:checked').value;
    return {
      model: $('model').value, task, method: $('method').value, tokens: $('tokens').value.trim(),
      epochs: $('epochs').value.trim(), imgbatch: $('imgbatch').value, image: modelKinds[$('model').value] === 'image',
      gpu: $('gpu').value, gpus: $('gpus').value, all: $('all').checked ? '1' : '0',
      batch: $('batch').value, prompt: $('prompt').value, output: $('output').value, weights: $('weights').value,
      pcie: $('pcie').value, p2p: $('p2p').value, today: pinnedToday,
    };
  }
  function applyHash() {
    const p = new URLSearchParams(location.hash.slice(1));
    const set = (id, v) => { if (v !== null && v !== undefined) $(id).value = v; };
    if (p.has('model') && [...$('model').options].some((o) => o.value === p.get('model'))) set('model', p.get('model'));
    if (p.has('model') && p.get('model') === '(json)') $('model').value = '(json)';
    if (p.has('task')) {
      const r = document.querySelector('input[name=task][value="' + CSS.escape(p.get('task')) + '"]');
      if (r) r.checked = true;
    }
    for (const id of ['method', 'tokens', 'epochs', 'gpus', 'batch', 'imgbatch', 'prompt', 'output', 'weights']) if (p.has(id)) set(id, p.get(id));
    if (p.has('pcie') && [...$('pcie').options].some((o) => o.value === p.get('pcie'))) set('pcie', p.get('pcie'));
    if (p.has('p2p') && [...$('p2p').options].some((o) => o.value === p.get('p2p'))) set('p2p', p.get('p2p'));
    if (p.has('gpu') && [...$('gpu').options].some((o) => o.value === p.get('gpu'))) set('gpu', p.get('gpu'));
    if (p.has('all')) $('all').checked = p.get('all') === '1';
    if (p.has('modeljson')) $('model-json').value = p.get('modeljson');
    if (p.has('today')) pinnedToday = p.get('today');
  }
  function writeHash(s) {
    const p = new URLSearchParams();
    for (const k of fields) {
      if (s.task === 'serve' && (k === 'tokens' || k === 'method' || k === 'epochs')) continue;
      if (s.task !== 'serve' && ['batch', 'imgbatch', 'prompt', 'output', 'weights'].includes(k)) continue;
      if (s.image && ['tokens', 'method', 'batch', 'prompt', 'output'].includes(k)) continue;
      if (!s.image && ['epochs', 'imgbatch'].includes(k)) continue;
      if (s.task === 'train' && k === 'method') continue;
      if (s.all === '1' && (k === 'gpu' || k === 'gpus')) continue;
      if (k === 'pcie' && s.pcie === 'switch') continue;
      if (k === 'p2p' && s.p2p === 'auto') continue;
      p.set(k, s[k]);
    }
    if (s.model === '(json)') p.set('modeljson', $('model-json').value);
    if (s.today) p.set('today', s.today);
    history.replaceState(null, '', '#' + p.toString());
  }
  function layout(s) {
    document.body.classList.toggle('task-serve', s.task === 'serve');
    document.body.classList.toggle('task-finetune', s.task === 'finetune');
    document.body.classList.toggle('all', s.all === '1');
    document.body.classList.toggle('image-model', s.image);
    $('model-json-label').hidden = s.model !== '(json)';
  }

  // The command line for the form: [subcommand, flags...], without --format; --pcie-host only when
  // the PCIe cards are not under switches (the tool's default), --p2p only when not NCCL's default.
  function commandFor(s) {
    const args = commandArgs(s);
    // An image model's inference runs on one GPU: no PCIe host to say.
    const onOneGpu = s.image && args[0] === 'infer';
    if (onOneGpu) return args;
    const host = s.pcie && s.pcie !== 'switch' ? ['--pcie-host', s.pcie] : [];
    const p2p = s.p2p && s.p2p !== 'auto' ? ['--p2p', s.p2p] : [];
    return [...args, ...host, ...p2p];
  }
  function commandArgs(s) {
    let model = s.model;
    if (model === '(json)') {
      const path = capplan.ccall('capplan_put_file', 'string', ['string', 'string'], ['model.json', $('model-json').value]);
      if (!path) throw new Error('the pasted model could not be stored');
      model = path;
    }
    if (s.image) {
      // Image models: epochs of ImageNet-1k (train, compare), batches of images on one GPU (infer).
      if (s.task === 'serve') {
        if (s.all === '1') return ['compare', '--serve', '--model', model, '--batch', s.imgbatch, '--weights', s.weights];
        return ['infer', '--model', model, '--gpu', s.gpu, '--batch', s.imgbatch, '--weights', s.weights];
      }
      if (s.all === '1') return ['compare', '--model', model, '--epochs', s.epochs];
      return ['train', '--model', model, '--epochs', s.epochs, '--gpu', s.gpu, '--gpus', s.gpus];
    }
    const training = ['--model', model, '--tokens', s.tokens];
    if (s.task === 'finetune') training.push('--finetune', s.method);
    if (s.all === '1') {
      if (s.task === 'serve') {
        const context = String(Number(s.prompt) + Number(s.output));
        return ['compare', '--model', model, '--serve', '--batch', s.batch, '--context', context, '--weights', s.weights];
      }
      return ['compare', ...training];
    }
    if (s.task === 'serve') {
      return ['infer', '--model', model, '--gpu', s.gpu, '--gpus', s.gpus, '--batch', s.batch,
        '--prompt-tokens', s.prompt, '--output-tokens', s.output, '--weights', s.weights];
    }
    return ['train', ...training, '--gpu', s.gpu, '--gpus', s.gpus];
  }

  // ---- Numbers for the cards ------------------------------------------------------------------
  const sig = (v, n) => Number(v).toPrecision(n).replace(/\.?0+(e|$)/, '$1');
  function duration(s) {
    if (s < 1e-3) return sig(s * 1e6, 3) + ' µs';
    if (s < 1) return sig(s * 1e3, 3) + ' ms';
    if (s < 120) return sig(s, 3) + ' s';
    if (s < 7200) return sig(s / 60, 3) + ' min';
    if (s < 172800) return sig(s / 3600, 3) + ' h';
    if (s < 86400 * 730) return sig(s / 86400, 3) + ' days';
    return sig(s / (86400 * 365.25), 3) + ' years';
  }
  const gb = (b) => sig(b / 1e9, 3) + ' GB';
  // A count: whole and grouped from 10,000 up ("15,360"), else 4 significant digits.
  const count = (v) => (Number(v) >= 1e4 ? Math.round(Number(v)).toLocaleString('en-US') : sig(v, 4));
  const usd = (m) => (m === null || m === undefined) ? 'no price' : '$' + Number(m).toLocaleString('en-US', { maximumFractionDigits: 2 });
  // A key that names USD holds USD or null; a figure in another currency is under the key without
  // "_usd", its ISO code under that plus "_currency" (docs/cli.md, "Money in another currency").
  const money = (o, key) => {
    const base = key.replace('_usd', '');
    if ((o[key] === null || o[key] === undefined) && o[base + '_currency']) {
      return Number(o[base]).toLocaleString('en-US', { maximumFractionDigits: 4 }) + ' ' + o[base + '_currency'];
    }
    return usd(o[key]);
  };
  const perGpuHour = (d) => (d.price_per_gpu_hour_usd || d.price_per_gpu_hour) ? money(d, 'price_per_gpu_hour_usd') + ' per GPU-hour' : 'no rent found';

  function card(label, key, raw, text, sub, cls) {
    const c = document.createElement('div');
    c.className = 'card';
    c.dataset.key = key;
    c.dataset.v = raw === null || raw === undefined ? '' : String(raw);
    const l = document.createElement('div'); l.className = 'label'; l.textContent = label;
    const v = document.createElement('div'); v.className = 'value' + (cls ? ' ' + cls : ''); v.textContent = text;
    c.append(l, v);
    if (sub) { const s = document.createElement('div'); s.className = 'sub'; s.textContent = sub; c.append(s); }
    return c;
  }
  function fitText(d) { return d.fits ? (d.tight ? 'fits (tight)' : 'fits') : 'does not fit'; }

  function cards(cmd, d) {
    const out = [];
    if (cmd === 'train' && d.images !== undefined) {
      const pipe = d.data_pipeline || {};
      out.push(card('Training time', 'time_s', d.time_s, duration(d.time_s),
          count(d.images) + ' images; expected with failures: ' + duration(d.expected_wall_clock_s)));
      out.push(card('Throughput', 'images_per_s', d.images_per_s, count(d.images_per_s) + ' images/s',
        pipe.bottleneck === 'gpu' ? 'the GPUs set the pace'
          : 'waits on ' + (pipe.bottleneck === 'cpu' ? 'CPU decoding' : 'storage') + ' (the GPUs alone: ' + count(d.gpu_bound_images_per_s) + ')'));
      out.push(card('Memory per GPU', 'memory_per_gpu_bytes', d.memory_per_gpu_bytes, gb(d.memory_per_gpu_bytes), fitText(d) +
        ', at most ' + d.max_batch_per_gpu + ' images', d.fits ? 'fits' : 'nofit'));
      out.push(card('Cost', 'cost_usd', d.cost_usd, money(d, 'cost_usd'), perGpuHour(d)));
      out.push(card('GPU-hours', 'gpu_hours', d.gpu_hours, sig(d.gpu_hours, 4)));
      out.push(card('Energy', 'energy_kwh', d.energy_kwh, sig(d.energy_kwh, 3) + ' kWh', sig(d.co2e_kg, 3) + ' kg CO2e'));
    } else if (cmd === 'infer' && d.images_per_s !== undefined) {
      out.push(card('Throughput', 'images_per_s', d.images_per_s, count(d.images_per_s) + ' images/s', 'batch ' + d.batch + ', ' + d.precision));
      out.push(card('Latency', 'latency_s', d.latency_s, duration(d.latency_s), 'one batch'));
      out.push(card('Memory per GPU', 'memory_per_gpu_bytes', d.memory_per_gpu_bytes, gb(d.memory_per_gpu_bytes), fitText(d), d.fits ? 'fits' : 'nofit'));
      out.push(card('Cost per million images', 'cost_per_million_images_usd', d.cost_per_million_images_usd, money(d, 'cost_per_million_images_usd')));
      out.push(card('Energy per million images', 'kwh_per_million_images', d.kwh_per_million_images, sig(d.kwh_per_million_images, 3) + ' kWh'));
    } else if (cmd === 'train') {
      const p = d.plan || {};
      out.push(card('Training time', 'time_s', d.time_s, duration(d.time_s), 'expected with failures: ' + duration(d.expected_wall_clock_s)));
      out.push(card('Memory per GPU', 'memory_per_gpu_bytes', d.memory_per_gpu_bytes, gb(d.memory_per_gpu_bytes), fitText(d), d.fits ? 'fits' : 'nofit'));
      out.push(card('Cost', 'cost_usd', d.cost_usd, money(d, 'cost_usd'), perGpuHour(d)));
      out.push(card('GPU-hours', 'gpu_hours', d.gpu_hours, sig(d.gpu_hours, 4), 'MFU ' + sig(100 * d.mfu, 3) + ' %'));
      out.push(card('Energy', 'energy_kwh', d.energy_kwh, sig(d.energy_kwh, 3) + ' kWh', sig(d.co2e_kg, 3) + ' kg CO2e'));
      out.push(card('Plan', 'plan', JSON.stringify(p), 'TP ' + p.tp + ' · PP ' + p.pp + ' · DP ' + p.dp,
        'micro-batch ' + p.micro_batch + ', ZeRO ' + p.zero + ', recompute ' + p.recompute));
    } else if (cmd === 'infer') {
      out.push(card('Time to first token', 'ttft_s', d.ttft_s, duration(d.ttft_s)));
      out.push(card('Decode', 'decode_tokens_per_s', d.decode_tokens_per_s, sig(d.decode_tokens_per_s, 3) + ' tokens/s',
        sig(d.decode_tokens_per_s_per_sequence, 3) + ' per sequence'));
      out.push(card('Memory per GPU', 'memory_per_gpu_bytes', d.memory_per_gpu_bytes, gb(d.memory_per_gpu_bytes), fitText(d), d.fits ? 'fits' : 'nofit'));
      out.push(card('Cost per million output tokens', 'cost_usd_per_million_tokens', d.cost_usd_per_million_tokens, money(d, 'cost_usd_per_million_tokens')));
      out.push(card('Power', 'it_power_w', d.it_power_w, sig(d.it_power_w, 3) + ' W'));
    } else {
      const rows = d.rows || [];
      const fit = rows.filter((r) => r.fits);
      const known = (v) => v !== null && v !== undefined;
      const fastest = fit.filter((r) => known(r.time_s)).sort((a, b) => a.time_s - b.time_s)[0];
      const quickest = fit.filter((r) => known(r.decode_tokens_per_s)).sort((a, b) => b.decode_tokens_per_s - a.decode_tokens_per_s)[0];
      const busiest = fit.filter((r) => known(r.images_per_h)).sort((a, b) => b.images_per_h - a.images_per_h)[0];
      const perImage = fit.filter((r) => known(r.rent_usd_per_kimage)).sort((a, b) => a.rent_usd_per_kimage - b.rent_usd_per_kimage)[0];
      const price = (r) => (r.own_cost_usd !== null && r.own_cost_usd !== undefined) ? Number(r.own_cost_usd) : Infinity;
      const cheapest = fit.filter((r) => price(r) < Infinity).sort((a, b) => price(a) - price(b))[0];
      out.push(card('Options', 'rows', rows.length, String(rows.length), fit.length + ' fit'));
      if (fastest) out.push(card('Fastest that fits', 'time_s', fastest.time_s, duration(fastest.time_s), fastest.option));
      if (quickest) {
        out.push(card('Fastest decode that fits', 'decode_tokens_per_s', quickest.decode_tokens_per_s,
          sig(quickest.decode_tokens_per_s, 3) + ' tokens/s', quickest.option));
      }
      if (busiest) out.push(card('Most images per hour', 'images_per_h', busiest.images_per_h, sig(busiest.images_per_h, 3) + ' images/h', busiest.option));
      if (perImage) {
        out.push(card('Cheapest rented image', 'rent_usd_per_kimage', perImage.rent_usd_per_kimage,
          usd(perImage.rent_usd_per_kimage) + ' per 1,000', perImage.option));
      }
      if (cheapest) out.push(card('Cheapest to own', 'own_cost_usd', cheapest.own_cost_usd, usd(cheapest.own_cost_usd), cheapest.option));
      out.push(card('On the Pareto frontier', 'pareto', rows.filter((r) => r.pareto).length,
        String(rows.filter((r) => r.pareto).length), 'no other option is both cheaper and faster'));
    }
    return out;
  }

  // ---- One computation ------------------------------------------------------------------------
  function recompute() {
    const s = state();
    layout(s);
    writeHash(s);
    const t0 = performance.now();
    $('error').hidden = true;
    try {
      const args = commandFor(s);
      $('command').textContent = 'capplan ' + args.map((a) => (/^[\w.\/@=+:-]+$/.test(a) ? a : "'" + a.replace(/'/g, "'\\''") + "'")).join(' ');
      const json = runJson(args);
      marks.json = marks.json || Math.round(performance.now());
      $('json').textContent = json.text;
      $('summary').replaceChildren(...cards(args[0], json.data));
      root.dataset.command = JSON.stringify(args);
      $('status').textContent = 'Computed in ' + Math.round(performance.now() - t0) + ' ms.';
      firstShown();
      // The report (the same command as HTML) after the cards are on screen.
      root.dataset.ready = '0';
      const generation = ++reports;
      setTimeout(() => {
        if (generation !== reports) return;  // the inputs changed meanwhile
        const page = run(['--format', 'html', ...globalArgs(), ...args]);
        const report = $('report');
        report.srcdoc = page.exit === 0 ? page.stdout : '<pre>' + page.stderr.replace(/&/g, '&amp;').replace(/</g, '&lt;') + '</pre>';
        report.hidden = false;
        root.dataset.computeMs = String(Math.round(performance.now() - t0));
        root.dataset.ready = '1';
      }, 0);
      return;
    } catch (e) {
      ++reports;
      $('summary').replaceChildren();
      $('json').textContent = '';
      $('report').hidden = true;
      $('error').textContent = String(e.message || e);
      $('error').hidden = false;
      $('status').textContent = 'No result: see the message.';
    }
    firstShown();
    root.dataset.ready = '1';
  }
  let reports = 0;
  function firstShown() {
    if (!firstResult) return;
    firstResult = false;
    // Since the navigation started (performance's time origin): loading, compiling the module,
    // reading the catalog and the first computation's figures on screen.
    root.dataset.firstResultMs = String(Math.round(performance.now()));
    root.dataset.startup = JSON.stringify(marks);
  }
  function later() {
    clearTimeout(timer);
    timer = setTimeout(recompute, 200);
  }

  // ---- Start ----------------------------------------------------------------------------------
  function fill(select, entries, label) {
    select.replaceChildren(...entries.map((e) => {
      const o = document.createElement('option');
      o.value = e.id;
      o.textContent = label(e);
      return o;
    }));
  }
  const marks = { script: Math.round(performance.now()) };
  createCapplan().then((m) => {
    capplan = m;
    marks.module = Math.round(performance.now());
    const version = run(['--version']);
    $('version').textContent = version.stdout.trim();
    const models = runJson(['catalog', 'list', '--kind', 'models']).data.entries;
    for (const e of models) modelKinds[e.id] = e.kind;
    fill($('model'), models, (e) => e.id + ' (' + sig(e.params / 1e9, 3) + 'B)');
    const json = document.createElement('option');
    json.value = '(json)';
    json.textContent = 'Paste a model file (JSON)…';
    $('model').append(json);
    $('model').value = 'llama2-7b';
    const gpus = runJson(['catalog', 'list']).data.entries;
    fill($('gpu'), gpus, (e) => e.id + ' · ' + sig(e.memory_bytes / 1e9, 3) + ' GB');
    $('gpu').value = 'h100-sxm';
    marks.lists = Math.round(performance.now());
    applyHash();
    $('form').addEventListener('input', later);
    $('form').addEventListener('change', later);
    window.addEventListener('hashchange', () => { applyHash(); recompute(); });
    recompute();
  }, (e) => {
    $('status').textContent = 'capplan could not start: ' + e;
    root.dataset.ready = '1';
  });
})();
