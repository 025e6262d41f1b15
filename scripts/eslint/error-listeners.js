// ESLint rule: every socket, stream, server, worker and child process the code creates has an 'error' listener.
//
// Node ends the process when an EventEmitter emits 'error' with no listener: one bad frame from one client on
// a WebSocket nobody listens to, one reset on a socket, one failed accept on a server, and every player is cut
// off. So whatever the code creates that can emit 'error' gets a lasting listener from the start:
//
//   - created with `new` (WebSocket, WebSocketServer, Worker, net Socket/Server, Readable, Writable, Duplex,
//     Transform, PassThrough, an ioredis Redis or Cluster), or by a factory (http/https/net/tls createServer, connect, createConnection,
//     request, get; fs createReadStream/createWriteStream; Readable.from; child_process spawn/fork/exec/execFile;
//     nodemailer createTransport; an express app's `listen`, which returns the server);
//   - or handed to a callback as a new socket: `handleUpgrade(req, socket, head, (ws) => ...)`,
//     `on('upgrade', (req, socket) => ...)`, `on('connection', (socket) => ...)`.
//
// It has one when, in the scope of the variable that holds it (or the parameter that receives it), there is
// `<it>.on('error', ...)` (or addListener/prependListener: `once` does not count, it is gone after one error,
// the usual `server.once('error', reject)` before listening included), or when it is created as
// `new X(...).on('error', ...)`, or handed to stream.pipeline()/finished(), which handle its errors. A value
// the rule cannot follow (returned, passed on, kept in a field) is reported: add the listener where it is
// created, or say why not with an eslint-disable comment.

const CONSTRUCTED = new Set([
  'WebSocket',
  'WebSocketServer',
  'Worker',
  'Socket',
  'Server',
  'Readable',
  'Writable',
  'Duplex',
  'Transform',
  'PassThrough',
  'Redis',
  'Cluster',
]);
/** Factories by the module object they are called on (an imported namespace or default export). */
const FACTORIES = {
  http: ['createServer', 'request', 'get'],
  https: ['createServer', 'request', 'get'],
  net: ['createServer', 'connect', 'createConnection'],
  tls: ['createServer', 'connect'],
  fs: ['createReadStream', 'createWriteStream'],
  Readable: ['from'],
  nodemailer: ['createTransport'],
  child_process: ['spawn', 'fork', 'exec', 'execFile'],
  childProcess: ['spawn', 'fork', 'exec', 'execFile'],
};
/** Factories called bare (named imports). */
const BARE_FACTORIES = new Set(['createReadStream', 'createWriteStream', 'spawn', 'fork', 'execFile', 'createTransport']);
const LISTEN_METHODS = new Set(['on', 'addListener', 'prependListener']);
const ERROR_HANDLING_CALLS = new Set(['pipeline', 'finished']);

const calleeName = (callee) =>
  callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' && callee.property.type === 'Identifier' ? callee.property.name : null;

/** What the node creates ('a WebSocket', 'net.connect()'), or null when it creates nothing the rule follows. */
function creation(node) {
  if (node.type === 'NewExpression') {
    const name = calleeName(node.callee);
    return name && CONSTRUCTED.has(name) ? `new ${name}()` : null;
  }
  if (node.type !== 'CallExpression') return null;
  const callee = node.callee;
  if (callee.type === 'Identifier') return BARE_FACTORIES.has(callee.name) ? `${callee.name}()` : null;
  if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return null;
  const method = callee.property.name;
  if (callee.object.type === 'Identifier' && FACTORIES[callee.object.name]?.includes(method)) return `${callee.object.name}.${method}()`;
  // `const server = app.listen(...)`: the server express creates. (A bare `server.listen()` statement creates nothing.)
  if (method === 'listen' && node.parent.type !== 'ExpressionStatement' && node.parent.type !== 'AwaitExpression')
    return `${calleeName(callee.object) ?? 'app'}.listen()`;
  return null;
}

/** True when `id` (a reference to the value) is the object of `.on('error', ...)` (or addListener/prependListener). */
function listensForErrors(id) {
  let node = id;
  // `ws.on('message', f).on('error', g)`: walk up a chain of listener calls.
  for (;;) {
    const member = node.parent;
    if (member?.type !== 'MemberExpression' || member.object !== node || member.property.type !== 'Identifier') return false;
    const call = member.parent;
    if (call?.type !== 'CallExpression' || call.callee !== member) return false;
    const [event] = call.arguments;
    if (LISTEN_METHODS.has(member.property.name) && event?.type === 'Literal' && event.value === 'error') return true;
    if (!LISTEN_METHODS.has(member.property.name) && member.property.name !== 'once') return false;
    node = call;
  }
}

/** True when the value is handed straight to pipeline()/finished(). */
function handedToErrorHandling(node) {
  const call = node.parent;
  return call?.type === 'CallExpression' && call.arguments.includes(node) && ERROR_HANDLING_CALLS.has(calleeName(call.callee));
}

/** True when some reference of `variable` listens for errors or hands it to pipeline()/finished(). */
function variableHandled(variable) {
  return variable.references.some((ref) => listensForErrors(ref.identifier) || handedToErrorHandling(ref.identifier));
}

export const errorListeners = {
  meta: {
    type: 'problem',
    docs: { description: "every socket, stream, server, worker and child process the code creates has a lasting 'error' listener" },
    schema: [],
    messages: {
      missing:
        "{{what}} can emit 'error', and an 'error' nobody listens to ends the process: add `{{name}}.on('error', ...)` where it is created (once() does not count: it is gone after one error).",
      untracked:
        "{{what}} can emit 'error': keep it in a variable and add `.on('error', ...)` in the same scope (or chain `.on('error', ...)` onto it), so the rule can see it has one.",
      parameter: "{{what}} is a new socket: add `{{name}}.on('error', ...)` in this callback before anything else, or one bad frame or reset ends the process.",
    },
  },
  create(context) {
    const sourceCode = context.sourceCode;

    function check(node) {
      const what = creation(node);
      if (!what) return;
      if (listensForErrors(node) || handedToErrorHandling(node)) return;
      let target = node.parent;
      // Through what only passes the value on: `await`, type assertions, `cond ? create() : null`, `a ?? create()`.
      while (
        ['AwaitExpression', 'TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'ConditionalExpression', 'LogicalExpression'].includes(
          target.type,
        )
      )
        target = target.parent;
      if (target.type === 'VariableDeclarator' && target.id.type === 'Identifier') {
        const [variable] = sourceCode.getDeclaredVariables(target);
        if (variable && !variableHandled(variable)) context.report({ node, messageId: 'missing', data: { what, name: target.id.name } });
        return;
      }
      if (target.type === 'AssignmentExpression' && target.left.type === 'Identifier') {
        const variable = findVariable(sourceCode.getScope(target), target.left.name);
        if (variable && !variableHandled(variable)) context.report({ node, messageId: 'missing', data: { what, name: target.left.name } });
        return;
      }
      context.report({ node, messageId: 'untracked', data: { what } });
    }

    /** A callback's parameter that receives a new socket: its error listener must be added in the callback. */
    function checkParameter(arg, index, what) {
      const fn = arg?.type === 'Identifier' ? functionNamed(sourceCode.getScope(arg), arg.name) : arg;
      if (!fn || (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression' && fn.type !== 'FunctionDeclaration')) return;
      const param = fn.params[index];
      if (!param || param.type !== 'Identifier') return;
      const [variable] = sourceCode.getDeclaredVariables(fn).filter((v) => v.name === param.name);
      if (variable && !variableHandled(variable)) context.report({ node: param, messageId: 'parameter', data: { what, name: param.name } });
    }

    return {
      NewExpression: check,
      CallExpression(node) {
        check(node);
        const name = calleeName(node.callee);
        if (name === 'handleUpgrade') checkParameter(node.arguments[3], 0, 'the WebSocket handleUpgrade() creates');
        if ((name === 'on' || name === 'once' || name === 'addListener') && node.arguments[0]?.type === 'Literal') {
          if (node.arguments[0].value === 'upgrade')
            checkParameter(node.arguments[1], 1, "the socket of an 'upgrade' (the HTTP server no longer listens to it)");
          if (node.arguments[0].value === 'connection') checkParameter(node.arguments[1], 0, "the socket of a 'connection'");
        }
      },
    };
  },
};

/** The function a name is bound to (`const onUpgrade = (req, socket) => ...`, `function onUpgrade(...)`), if it is one. */
function functionNamed(scope, name) {
  const def = findVariable(scope, name)?.defs[0];
  if (!def) return null;
  if (def.type === 'FunctionName') return def.node;
  if (def.type === 'Variable' && def.node.init) return def.node.init;
  return null;
}

function findVariable(scope, name) {
  for (let s = scope; s; s = s.upper) {
    const v = s.set.get(name);
    if (v) return v;
  }
  return null;
}

export default { rules: { 'error-listeners': errorListeners } };
