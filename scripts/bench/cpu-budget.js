// The bench's CPU budget (docs/benchmarks.md, "CPU budget"): a V8 CPU profile of the server's main
// thread (`node --cpu-prof`), summarised by stage of the request path — where each microsecond of
// a kept page goes. Each sample is charged to the innermost frame on its stack that belongs to a
// stage; frames of no stage (a helper, a built-in) pass the sample on to their caller. A sample
// that reaches the root unclaimed is "other". Idle samples are left out.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Stages in the order a request meets them; `frame` claims a sample for the stage. */
export const STAGES = [
  'HTTP parsing and Request objects',
  'middleware chain',
  'session lookup',
  'freshness check',
  'page cache / render memo lookup',
  'React Router and loaders',
  'SQL (Kysely, drivers)',
  'render / memo fill',
  'header building',
  'body write',
  'garbage collection',
  'other (V8, microtasks)',
];

// Functions of our own code (the server bundle keeps their names), by the top-level function or
// class a frame sits in: an anonymous middleware is known by the factory that returned it.
const OWN = {
  'middleware chain': ['createHttpApp', 'observeRequests', 'routeLabeler', 'RouteTable', 'requestContext', 'resolveClientIp', 'remoteAddress', 'originCheck', 'compress', 'pickEncoding', 'pageBodyLimit', 'serviceContext', 'rateLimit'],
  'session lookup': ['resolveUser', 'knownUser', 'withStoredProfile', 'authPort', 'createAuth'],
  'freshness check': ['readCurrentVersions', 'knownVersions', 'readFromPool', 'readPageVersions', 'readContentVersions', 'toVersions', 'VersionListener', 'FreshnessWatch', 'pageVersionsFromMemory'],
  'page cache / render memo lookup': ['pageCache', 'blogOf', 'isCacheable', 'withoutNonce', 'ViewerMemo', 'viewerMemo'],
  'render / memo fill': ['handleRequest', 'renderSignedIn', 'renderWhole', 'renderStreamed', 'wholeResponse', 'fillTemplate', 'makeTemplate', 'RenderMemo', 'keepable', 'lowerScriptPriority', 'lowerScriptPriorityStream', 'ViewerSlots', 'escapeMarkup', 'escapeInDataScript', 'defersData'],
  'header building': ['securityHeaders', 'respond', 'nextNonce', 'secureCookies', 'keptHeaders', 'headersOf', 'sentHeaders', 'sentHeaders$1'],
};
const OWN_STAGE = new Map(Object.entries(OWN).flatMap(([stage, names]) => names.map((name) => [name, stage])));
// React Router's server runtime, partly bundled into our chunks.
const REACT_ROUTER = new Set(['createRequestHandler', 'getBuildTimeHeader', 'createServerHandoffString', 'createStaticHandler', 'createStaticRouter', 'createServerRoutes', 'handleDocumentRequest', 'handleDataRequest', 'handleResourceRequest', 'encodeViaTurboStream', 'getSingleFetchRedirect', 'matchServerRoutes', 'derive', 'singleFetchAction', 'singleFetchLoaders', 'ServerRouter', 'createRoutesFromManifest']);

/** The nearest top-level declaration above each line of a bundled file (its lines are 0-based in a profile). */
const enclosingCache = new Map();
function enclosingOf(file) {
  let names = enclosingCache.get(file);
  if (names) return names;
  names = [];
  let current = '';
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // A file that is gone (a rebuilt bundle) names nothing.
  }
  for (const line of text.split('\n')) {
    const m = /^(?:export\s+)?(?:async\s+)?(?:function\*?\s+([\w$]+)|(?:var|let|const)\s+([\w$]+)\s*=|class\s+([\w$]+))/.exec(line);
    if (m) current = (m[1] ?? m[2] ?? m[3]).replace(/\$\d+$/, '');
    names.push(current);
  }
  enclosingCache.set(file, names);
  return names;
}

/** The stage a frame claims, or null when it passes the sample to its caller. */
export function stageOfFrame({ functionName: name, url, lineNumber }) {
  if (name === '(garbage collector)') return 'garbage collection';
  if (name === '(program)' || name === 'runMicrotasks' || name === 'processTicksAndRejections') return 'other (V8, microtasks)';
  if (name === 'writev' || name === 'writeBuffer' || name === 'writeUtf8String' || name === 'writeLatin1String') return 'body write';
  if (url.startsWith('node:')) {
    if (/^node:internal\/deps\/undici/.test(url)) return /Request|webidl\.converters\.RequestInit/.test(name) ? 'HTTP parsing and Request objects' : 'header building';
    if (url === 'node:_http_outgoing' && /Header|storeHeader/i.test(name)) return 'header building';
    if (url === 'node:_http_server' && name === 'writeHead') return 'header building';
    if (url === 'node:_http_common' && /checkInvalidHeaderChar|checkIsHttpToken/.test(name)) return 'header building';
    if (/^node:(?:_http_outgoing|net|internal\/stream_base_commons|internal\/streams\/writable)$/.test(url)) return 'body write';
    if (/^node:(?:_http_server|_http_common|_http_incoming)$/.test(url)) return 'HTTP parsing and Request objects';
    return null;
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
  if (pkg) {
    if (pkg === '@hono/node-server') {
      if (/responseViaCache|writeFromReadableStream|responseViaResponseObject|flushHeaders/.test(name)) return 'body write';
      if (/buildOutgoingHttpHeaders/.test(name)) return 'header building';
      return 'HTTP parsing and Request objects';
    }
    if (pkg === 'hono') return 'middleware chain';
    if (pkg === 'kysely' || pkg === 'pg' || pkg === 'pg-protocol' || pkg === 'pg-pool') return 'SQL (Kysely, drivers)';
    if (pkg === 'better-auth' || pkg === '@better-auth/core' || pkg === 'better-call') return 'session lookup';
    if (pkg === 'react-dom' || pkg === 'react') return 'render / memo fill';
    if (pkg === 'react-router' || pkg === '@react-router/node') return 'React Router and loaders';
    return null;
  }
  if (!url.includes('/build/server/')) return null;
  // Bundled libraries: React Router's chunks and Kysely's.
  const base = path.basename(url);
  if (/^chunk-[A-Z0-9]+-/.test(base)) return 'React Router and loaders';
  // A frame of a bundle that cannot be read (rebuilt since) is known by its own name.
  const top = enclosingOf(url.startsWith('file://') ? new URL(url).pathname : url)[lineNumber] || name;
  if (OWN_STAGE.has(top)) return OWN_STAGE.get(top);
  if (REACT_ROUTER.has(top) || /^loader$/.test(top)) return 'React Router and loaders';
  if (/^(?:dist|sql|sqlite-introspector|sqlite-adapter|compiled-query)-/.test(base) || /Driver|Connection|QueryCompiler|QueryBuilder|Kysely|Transformer|Executor|withStatementCache/.test(top)) return 'SQL (Kysely, drivers)';
  return null;
}

const short = ({ functionName, url, lineNumber }) => {
  const where = url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '').replace(/.*\/build\/server\//, 'build/');
  return `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`;
};

/**
 * Summarises a `.cpuprofile` between two CLOCK_MONOTONIC instants in µs (process.hrtime in the
 * bench: V8 stamps samples with the same clock): µs of main-thread time per request by stage,
 * and each stage's functions by self time.
 */
export function summariseProfile(profile, { fromUs, toUs, requests }) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stageOfNode = new Map();
  const stageOf = (id) => {
    if (stageOfNode.has(id)) return stageOfNode.get(id);
    let stage = null;
    for (let at = id; at !== undefined && stage === null; at = parent.get(at)) stage = stageOfFrame(byId.get(at).callFrame);
    stageOfNode.set(id, stage ?? 'other (V8, microtasks)');
    return stageOfNode.get(id);
  };
  const stages = new Map(STAGES.map((s) => [s, { us: 0, functions: new Map() }]));
  let at = profile.startTime;
  let busy = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    if (at < fromUs || at > toUs) continue;
    const node = byId.get(profile.samples[i]);
    // A sample's delta is the time since the previous one: charged to this one's stack.
    const us = profile.timeDeltas[i];
    if (node.callFrame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    const stage = stages.get(stageOf(node.id));
    stage.us += us;
    const name = short(node.callFrame);
    stage.functions.set(name, (stage.functions.get(name) ?? 0) + us);
  }
  const perRequest = (us) => us / Math.max(1, requests);
  return {
    requests,
    busyUsPerRequest: perRequest(busy),
    idleShare: idle / Math.max(1, idle + busy),
    stages: STAGES.map((name) => {
      const { us, functions } = stages.get(name);
      return {
        stage: name,
        usPerRequest: perRequest(us),
        share: us / Math.max(1, busy),
        top: [...functions].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([fn, fus]) => ({ fn, usPerRequest: perRequest(fus) })),
      };
    }),
  };
}

/** The budget of several profiled scenarios side by side, then each stage's top functions. */
export function budgetTable(budgets) {
  const head = ['| stage (µs of main-thread CPU per request) |', ...budgets.map((b) => ` ${b.name} |`)].join('');
  const rule = `|---|${budgets.map(() => '---:|').join('')}`;
  const rows = STAGES.map((stage) => `| ${stage} |${budgets.map((b) => { const s = b.summary.stages.find((x) => x.stage === stage); return ` ${s.usPerRequest.toFixed(1)} (${(s.share * 100).toFixed(0)}%) |`; }).join('')}`);
  const total = `| **total busy** |${budgets.map((b) => ` **${b.summary.busyUsPerRequest.toFixed(1)}** |`).join('')}`;
  const tops = budgets.flatMap((b) => [
    '',
    `Top self time by stage — ${b.name} (${b.summary.requests} requests, µs per request):`,
    '',
    '| stage | functions |',
    '|---|---|',
    ...b.summary.stages.filter((s) => s.usPerRequest >= 0.5).map((s) => `| ${s.stage} | ${s.top.filter((t) => t.usPerRequest >= 0.1).map((t) => `\`${t.fn}\` ${t.usPerRequest.toFixed(1)}`).join('; ')} |`),
  ]);
  return [head, rule, ...rows, total, ...tops].join('\n');
}
