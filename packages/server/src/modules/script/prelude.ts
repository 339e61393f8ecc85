// The VM side of the server script API (docs/decisions/0118): evaluated in every fresh context before the script, it
// takes the one host function `__host(name, json)`, removes it from the global object and answers the function that
// runs a handler with the `ctx` it builds. Only JSON strings cross to the host; JSON.parse and JSON.stringify are
// taken before the script runs, so a script that replaces them changes only what it sends itself (the host checks
// every argument again). Keep in step with SERVER_SCRIPT_API_DTS (packages/shared/src/script/script-api-types.ts).

/** The file name the VM's stack traces give the prelude (its frames are skipped when a log line looks for its line). */
export const PRELUDE_FILE = 'prelude.js';

/** Evaluates to `run(entry, inputJson, infoJson) → Promise<string>`; see runInSandbox. */
export const SERVER_PRELUDE = String.raw`(function (host) {
  'use strict';
  delete globalThis.__host;
  var stringify = JSON.stringify, parse = JSON.parse, freeze = Object.freeze, P = Promise, Err = Error, Str = String;
  var hasOwn = Object.prototype.hasOwnProperty, slice = Array.prototype.slice;
  var lineRe = /script\.js:(\d+)/;

  function lineOf(stack) {
    try { var m = lineRe.exec(Str(stack || '')); return m ? +m[1] : null; } catch (e) { return null; }
  }
  function text(value) {
    try {
      if (typeof value === 'string') return value;
      if (value instanceof Err) return value.name + ': ' + value.message;
      var json = stringify(value);
      return json === undefined ? Str(value) : json;
    } catch (e) {
      try { return Str(value); } catch (e2) { return '[无法显示的值]'; }
    }
  }
  function send(name, args) { host(name, stringify(args)); }
  function call(name, args) {
    var json;
    try { json = stringify(args); } catch (e) { return P.reject(new TypeError('参数不能转换为 JSON：' + e.message)); }
    return host(name, json).then(function (answer) { return parse(answer); });
  }
  function logger(level) {
    return function () {
      var parts = slice.call(arguments).map(text);
      send('log', { level: level, message: parts.join(' '), line: lineOf(new Err().stack) });
    };
  }
  function records(prefix) {
    return freeze({
      get: function (schemaCode, objectId) { return call(prefix + 'records.get', { schemaCode: schemaCode, objectId: objectId }); },
      query: function (schemaCode, options) { return call(prefix + 'records.query', { schemaCode: schemaCode, options: options === undefined ? {} : options }); },
      count: function (schemaCode, filter) { return call(prefix + 'records.count', { schemaCode: schemaCode, filter: filter === undefined ? null : filter }); },
      create: function (schemaCode, values, options) { return call(prefix + 'records.create', { schemaCode: schemaCode, values: values, options: options === undefined ? {} : options }); },
      update: function (schemaCode, objectId, values) { return call(prefix + 'records.update', { schemaCode: schemaCode, objectId: objectId, values: values }); },
      remove: function (schemaCode, objectId) { return call(prefix + 'records.remove', { schemaCode: schemaCode, objectId: objectId }); }
    });
  }
  var org = freeze({
    user: function (id) { return call('org.user', { id: id }); },
    department: function (id) { return call('org.department', { id: id }); },
    departments: function (parentId) { return call('org.departments', { parentId: parentId === undefined ? null : parentId }); },
    usersOf: function (departmentId) { return call('org.usersOf', { departmentId: departmentId }); },
    roles: function () { return call('org.roles', {}); },
    usersInRole: function (role) { return call('org.usersInRole', { role: role }); }
  });
  var connectors = freeze({ call: function (code, params) { return call('connectors.call', { code: code, params: params === undefined ? null : params }); } });
  var system = freeze({ records: records('system.') });

  function makeCtx(info, input) {
    return {
      engine: freeze(info.engine), user: freeze(info.user), appCode: info.appCode, schemaCode: info.schemaCode, requestId: info.requestId,
      actionName: input.actionName === undefined ? null : input.actionName,
      objectId: input.objectId === undefined ? null : input.objectId,
      isNew: !!input.isNew,
      record: input.record === undefined ? {} : input.record,
      children: input.children === undefined ? {} : input.children,
      objectIds: input.objectIds === undefined ? [] : input.objectIds,
      log: logger('info'), warn: logger('warn'), error: logger('error'),
      refuse: function (message) {
        var m = text(message);
        send('refuse', { message: m });
        var e = new Err(m);
        e.name = 'ScriptRefusal';
        throw e;
      },
      respond: function (data) { send('respond', { data: data === undefined ? null : data }); },
      records: records(''),
      asSystem: function () { return system; },
      org: org,
      notify: function (userIds, message) { return call('notify', { userIds: userIds, message: message }); },
      connectors: connectors
    };
  }
  function handlerOf(exported, entry) {
    var path = Str(entry).split('.');
    var at = exported;
    for (var i = 0; i < path.length; i++) {
      if (at === null || (typeof at !== 'object' && typeof at !== 'function') || !hasOwn.call(at, path[i])) return null;
      at = at[path[i]];
    }
    return typeof at === 'function' ? at : null;
  }

  return function run(entry, inputJson, infoJson) {
    var input = parse(inputJson), info = parse(infoJson);
    var handler = handlerOf(globalThis.__script, entry);
    if (!handler) return P.resolve(stringify({ found: false }));
    var ctx = makeCtx(info, input);
    var args = entry.indexOf('actions.') === 0 ? [ctx, input.params === undefined ? null : input.params] : [ctx];
    return P.resolve().then(function () { return handler.apply(undefined, args); }).then(function (value) {
      return stringify({ found: true, value: value === undefined ? null : value, record: ctx.record, children: ctx.children });
    });
  };
})(globalThis.__host)`;
