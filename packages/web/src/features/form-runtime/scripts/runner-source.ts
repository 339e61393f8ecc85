/**
 * The code that runs inside a browser script's sandbox frame: it compiles the script, calls its handlers with the
 * `form` object of docs/decisions/0118 and answers each event with the operations the handler asked for. Kept as
 * plain JavaScript text (a function of `env`), so that the frame and the tests run exactly the same code.
 *
 * `env.post(message)` sends to the form, `env.listen(receive)` hears the form only, `env.compile(js)` evaluates the
 * compiled script (an IIFE that assigns its exports to a global, `__formScript`) and answers its exports.
 */
export const RUNNER_SOURCE = String.raw`function runBrowserScript(env) {
  'use strict';
  var FORM_EVENTS = ['onLoad', 'afterLoad', 'onChange', 'validate', 'beforeSubmit', 'afterSubmit'];
  var script = {};
  var pending = new Map();
  var nextCall = 0;
  var textOf = function (error) {
    if (error && typeof error.message === 'string') return error.message;
    try { return String(error); } catch (ignored) { return ''; }
  };
  // Only JSON leaves the sandbox, and the script gets copies, never the values the runner keeps.
  var plain = function (value) {
    if (value === undefined) return null;
    try { var copy = JSON.parse(JSON.stringify(value)); return copy === undefined ? null : copy; } catch (ignored) { return null; }
  };
  var isFunction = function (value) { return typeof value === 'function'; };

  function load(js) {
    try {
      var exported = env.compile(js);
      script = exported && typeof exported === 'object' ? exported : {};
      // export default { onLoad, ... } as well as named exports.
      if (script.default && typeof script.default === 'object' && !FORM_EVENTS.some(function (name) { return isFunction(script[name]); }) && !script.buttons) script = script.default;
      var handlers = FORM_EVENTS.filter(function (name) { return isFunction(script[name]); });
      var buttons = script.buttons && typeof script.buttons === 'object' ? Object.keys(script.buttons).filter(function (name) { return isFunction(script.buttons[name]); }) : [];
      if (buttons.length) handlers.push('button');
      env.post({ type: 'ready', handlers: handlers, buttons: buttons });
    } catch (error) {
      script = {};
      env.post({ type: 'loadError', message: textOf(error) });
    }
  }

  function run(message) {
    var ops = [];
    var values = message.values || {};
    var flush = function () { return ops.splice(0, ops.length); };
    var mark = function (op) { return function (code) { ops.push({ op: op, code: String(code) }); }; };
    var form = Object.freeze({
      get: function (code) { return Object.prototype.hasOwnProperty.call(values, code) ? plain(values[code]) : null; },
      set: function (code, value) {
        var copy = plain(value);
        values = Object.assign({}, values);
        values[String(code)] = copy;
        ops.push({ op: 'set', code: String(code), value: copy });
      },
      show: mark('show'),
      hide: mark('hide'),
      lock: mark('lock'),
      unlock: mark('unlock'),
      message: function (text, type) { ops.push({ op: 'message', text: String(text), type: type === undefined ? 'info' : String(type) }); },
      callServer: function (actionName, params) {
        return new Promise(function (resolve, reject) {
          var callId = ++nextCall;
          pending.set(callId, {
            resolve: function (answer) {
              if (answer && answer.values) values = Object.assign({}, values, answer.values);
              resolve(plain(answer));
            },
            reject: reject,
          });
          // The form applies what the handler asked so far before it calls the server, which reads those values.
          env.post({ type: 'call', eventId: message.eventId, callId: callId, actionName: String(actionName), params: plain(params === undefined ? null : params), ops: flush() });
        });
      },
    });
    var handler = message.handler === 'button' ? script.buttons && script.buttons[message.args[0]] : script[message.handler];
    var args = message.handler === 'button' ? [form] : [form].concat(message.args);
    Promise.resolve()
      .then(function () { return isFunction(handler) ? handler.apply(undefined, args) : null; })
      .then(
        function (result) { env.post({ type: 'done', eventId: message.eventId, ops: flush(), result: plain(result) }); },
        function (error) {
          env.post({ type: 'done', eventId: message.eventId, ops: flush(), result: null, error: { message: textOf(error), fromServer: !!(error && error.fromServer === true) } });
        },
      );
  }

  env.listen(function (message) {
    if (!message || typeof message !== 'object') return;
    if (message.type === 'load' && typeof message.js === 'string') load(message.js);
    else if (message.type === 'event') run(message);
    else if (message.type === 'callResult') {
      var call = pending.get(message.callId);
      if (!call) return;
      pending.delete(message.callId);
      if (message.ok) call.resolve(message.answer);
      else {
        var failure = new Error(String(message.message));
        failure.fromServer = true;
        call.reject(failure);
      }
    }
  });
  env.post({ type: 'hello' });
}`;

/**
 * What follows the compiled script in the function that evaluates it: its exports, under the global name the server's
 * compiler gives (`__formScript`; `__script` is taken too).
 */
export const EXPORTS_TAIL = '\n;return typeof __formScript !== "undefined" ? __formScript : typeof __script !== "undefined" ? __script : undefined;';

/**
 * The sandbox frame's document. Its own policy lets the frame run inline code and evaluate the script, and load or
 * connect to nothing: a script cannot send the form's values anywhere.
 */
export function runnerDocument(): string {
  const policy = "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'";
  const boot = `(${RUNNER_SOURCE})({
  post: function (m) { host.postMessage(m, '*'); },
  listen: function (receive) { window.addEventListener('message', function (e) { if (e.source === host) receive(e.data); }); },
  compile: function (js) { return new Function(js + ${JSON.stringify(EXPORTS_TAIL)})(); }
});`;
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${policy}"></head><body><script>(function (host) {\n${boot}\n})(window.parent);</script></body></html>`;
}
