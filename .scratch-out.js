var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));

// ../../tmp/prof/jobs.ts
var import_cdk8s9 = require("cdk8s");

// lib/graph/edge-kind.ts
var EDGE_KINDS = ["ready", "completed", "same-node", "runtime"];
function isGating(kind) {
  return kind !== "runtime";
}
function isEdgeKind(value) {
  return EDGE_KINDS.includes(value);
}

// lib/graph/annotations.ts
var ANNOTATION_PREFIX = "stackwright.io";
var Annotations = {
  /** The cloud (root construct) the object belongs to. */
  CLOUD: `${ANNOTATION_PREFIX}/cloud`,
  /** The component that owns the object, e.g. `keystone-api`. Unique within a cloud. */
  COMPONENT: `${ANNOTATION_PREFIX}/component`,
  /** The service the component belongs to, e.g. `keystone`. */
  SERVICE: `${ANNOTATION_PREFIX}/service`,
  /** The construct path of the component, for error messages that point back at the code. */
  CONSTRUCT_PATH: `${ANNOTATION_PREFIX}/construct-path`,
  /** The component's edges, `name:kind` joined by commas and sorted, e.g. `keystone-db-sync:completed,memcached:ready`. */
  DEPENDS_ON: `${ANNOTATION_PREFIX}/depends-on`
};
function encodeDependsOn(edges) {
  return [...edges].map((e) => `${e.to}:${e.kind}`).sort().join(",");
}
function decodeDependsOn(from, value) {
  if (!value) return [];
  return value.split(",").map((item) => {
    const separator = item.lastIndexOf(":");
    const to = item.slice(0, separator);
    const kind = item.slice(separator + 1);
    if (separator <= 0 || !isEdgeKind(kind)) {
      throw new Error(
        `component ${from}: malformed ${Annotations.DEPENDS_ON} entry "${item}"; expected "<component>:<ready|completed|same-node|runtime>"`
      );
    }
    return { from, to, kind };
  });
}

// lib/graph/manifest.ts
function objectRef(object) {
  const ns = object.metadata.namespace;
  return ns ? `${object.kind}/${ns}/${object.metadata.name}` : `${object.kind}/${object.metadata.name}`;
}
function isKubeObject(value) {
  if (typeof value !== "object" || value === null) return false;
  const v = value;
  const metadata = v.metadata;
  return typeof v.apiVersion === "string" && typeof v.kind === "string" && typeof metadata === "object" && metadata !== null && typeof metadata.name === "string";
}

// lib/graph/topology.ts
function findCycle(names, edges) {
  const next = gatingAdjacency(names, edges);
  const state = /* @__PURE__ */ new Map();
  const stack = [];
  const visit = (name) => {
    state.set(name, "visiting");
    stack.push(name);
    for (const to of next.get(name) ?? []) {
      const seen = state.get(to);
      if (seen === "visiting") return [...stack.slice(stack.indexOf(to)), to];
      if (seen === void 0) {
        const found = visit(to);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(name, "done");
    return void 0;
  };
  for (const name of [...names].sort()) {
    if (!state.has(name)) {
      const found = visit(name);
      if (found) return found;
    }
  }
  return void 0;
}
function topologicalOrder(names, edges) {
  return topologicalLevels(names, edges).flat();
}
function topologicalLevels(names, edges) {
  const next = gatingAdjacency(names, edges);
  const level = /* @__PURE__ */ new Map();
  const remaining = new Map(names.map((n) => [n, next.get(n)?.length ?? 0]));
  const dependants = /* @__PURE__ */ new Map();
  for (const [from, tos] of next) {
    for (const to of tos) dependants.set(to, [...dependants.get(to) ?? [], from]);
  }
  let frontier = names.filter((n) => remaining.get(n) === 0);
  const levels = [];
  while (frontier.length > 0) {
    levels.push([...frontier].sort());
    const upcoming = [];
    for (const done of frontier) {
      level.set(done, levels.length - 1);
      for (const dependant of dependants.get(done) ?? []) {
        const left = (remaining.get(dependant) ?? 0) - 1;
        remaining.set(dependant, left);
        if (left === 0) upcoming.push(dependant);
      }
    }
    frontier = upcoming;
  }
  if (level.size !== names.length) {
    const cycle = findCycle(names, edges);
    throw new Error(`dependency cycle: ${(cycle ?? []).join(" -> ")}`);
  }
  return levels;
}
function gatingAdjacency(names, edges) {
  const known = new Set(names);
  const next = /* @__PURE__ */ new Map();
  for (const edge of edges) {
    if (!isGating(edge.kind) || !known.has(edge.from) || !known.has(edge.to)) continue;
    const targets = next.get(edge.from) ?? [];
    if (!targets.includes(edge.to)) targets.push(edge.to);
    next.set(edge.from, targets);
  }
  for (const targets of next.values()) targets.sort();
  return next;
}

// node_modules/js-yaml/dist/js-yaml.mjs
function getDefaultExportFromCjs(x) {
  return x && x.__esModule && Object.prototype.hasOwnProperty.call(x, "default") ? x["default"] : x;
}
var jsYaml = {};
var loader = {};
var common = {};
var hasRequiredCommon;
function requireCommon() {
  if (hasRequiredCommon) return common;
  hasRequiredCommon = 1;
  function isNothing(subject) {
    return typeof subject === "undefined" || subject === null;
  }
  function isObject(subject) {
    return typeof subject === "object" && subject !== null;
  }
  function toArray(sequence) {
    if (Array.isArray(sequence)) return sequence;
    else if (isNothing(sequence)) return [];
    return [sequence];
  }
  function extend(target, source) {
    if (source) {
      const sourceKeys = Object.keys(source);
      for (let index = 0, length = sourceKeys.length; index < length; index += 1) {
        const key = sourceKeys[index];
        target[key] = source[key];
      }
    }
    return target;
  }
  function repeat(string, count) {
    let result = "";
    for (let cycle = 0; cycle < count; cycle += 1) {
      result += string;
    }
    return result;
  }
  function isNegativeZero(number) {
    return number === 0 && Number.NEGATIVE_INFINITY === 1 / number;
  }
  common.isNothing = isNothing;
  common.isObject = isObject;
  common.toArray = toArray;
  common.repeat = repeat;
  common.isNegativeZero = isNegativeZero;
  common.extend = extend;
  return common;
}
var exception;
var hasRequiredException;
function requireException() {
  if (hasRequiredException) return exception;
  hasRequiredException = 1;
  function formatError(exception2, compact) {
    let where = "";
    const message = exception2.reason || "(unknown reason)";
    if (!exception2.mark) return message;
    if (exception2.mark.name) {
      where += 'in "' + exception2.mark.name + '" ';
    }
    where += "(" + (exception2.mark.line + 1) + ":" + (exception2.mark.column + 1) + ")";
    if (!compact && exception2.mark.snippet) {
      where += "\n\n" + exception2.mark.snippet;
    }
    return message + " " + where;
  }
  function YAMLException2(reason, mark2) {
    Error.call(this);
    this.name = "YAMLException";
    this.reason = reason;
    this.mark = mark2;
    this.message = formatError(this, false);
    if (Error.captureStackTrace) {
      Error.captureStackTrace(this, this.constructor);
    } else {
      this.stack = new Error().stack || "";
    }
  }
  YAMLException2.prototype = Object.create(Error.prototype);
  YAMLException2.prototype.constructor = YAMLException2;
  YAMLException2.prototype.toString = function toString(compact) {
    return this.name + ": " + formatError(this, compact);
  };
  exception = YAMLException2;
  return exception;
}
var snippet;
var hasRequiredSnippet;
function requireSnippet() {
  if (hasRequiredSnippet) return snippet;
  hasRequiredSnippet = 1;
  const common2 = requireCommon();
  function getLine(buffer, lineStart, lineEnd, position, maxLineLength) {
    let head = "";
    let tail = "";
    const maxHalfLength = Math.floor(maxLineLength / 2) - 1;
    if (position - lineStart > maxHalfLength) {
      head = " ... ";
      lineStart = position - maxHalfLength + head.length;
    }
    if (lineEnd - position > maxHalfLength) {
      tail = " ...";
      lineEnd = position + maxHalfLength - tail.length;
    }
    return {
      str: head + buffer.slice(lineStart, lineEnd).replace(/\t/g, "\u2192") + tail,
      pos: position - lineStart + head.length
      // relative position
    };
  }
  function padStart(string, max) {
    return common2.repeat(" ", max - string.length) + string;
  }
  function makeSnippet(mark2, options) {
    options = Object.create(options || null);
    if (!mark2.buffer) return null;
    if (!options.maxLength) options.maxLength = 79;
    if (typeof options.indent !== "number") options.indent = 1;
    if (typeof options.linesBefore !== "number") options.linesBefore = 3;
    if (typeof options.linesAfter !== "number") options.linesAfter = 2;
    const re = /\r?\n|\r|\0/g;
    const lineStarts = [0];
    const lineEnds = [];
    let match;
    let foundLineNo = -1;
    while (match = re.exec(mark2.buffer)) {
      lineEnds.push(match.index);
      lineStarts.push(match.index + match[0].length);
      if (mark2.position <= match.index && foundLineNo < 0) {
        foundLineNo = lineStarts.length - 2;
      }
    }
    if (foundLineNo < 0) foundLineNo = lineStarts.length - 1;
    let result = "";
    const lineNoLength = Math.min(mark2.line + options.linesAfter, lineEnds.length).toString().length;
    const maxLineLength = options.maxLength - (options.indent + lineNoLength + 3);
    for (let i = 1; i <= options.linesBefore; i++) {
      if (foundLineNo - i < 0) break;
      const line2 = getLine(
        mark2.buffer,
        lineStarts[foundLineNo - i],
        lineEnds[foundLineNo - i],
        mark2.position - (lineStarts[foundLineNo] - lineStarts[foundLineNo - i]),
        maxLineLength
      );
      result = common2.repeat(" ", options.indent) + padStart((mark2.line - i + 1).toString(), lineNoLength) + " | " + line2.str + "\n" + result;
    }
    const line = getLine(mark2.buffer, lineStarts[foundLineNo], lineEnds[foundLineNo], mark2.position, maxLineLength);
    result += common2.repeat(" ", options.indent) + padStart((mark2.line + 1).toString(), lineNoLength) + " | " + line.str + "\n";
    result += common2.repeat("-", options.indent + lineNoLength + 3 + line.pos) + "^\n";
    for (let i = 1; i <= options.linesAfter; i++) {
      if (foundLineNo + i >= lineEnds.length) break;
      const line2 = getLine(
        mark2.buffer,
        lineStarts[foundLineNo + i],
        lineEnds[foundLineNo + i],
        mark2.position - (lineStarts[foundLineNo] - lineStarts[foundLineNo + i]),
        maxLineLength
      );
      result += common2.repeat(" ", options.indent) + padStart((mark2.line + i + 1).toString(), lineNoLength) + " | " + line2.str + "\n";
    }
    return result.replace(/\n$/, "");
  }
  snippet = makeSnippet;
  return snippet;
}
var type;
var hasRequiredType;
function requireType() {
  if (hasRequiredType) return type;
  hasRequiredType = 1;
  const YAMLException2 = requireException();
  const TYPE_CONSTRUCTOR_OPTIONS = [
    "kind",
    "multi",
    "resolve",
    "construct",
    "instanceOf",
    "predicate",
    "represent",
    "representName",
    "defaultStyle",
    "styleAliases"
  ];
  const YAML_NODE_KINDS = [
    "scalar",
    "sequence",
    "mapping"
  ];
  function compileStyleAliases(map2) {
    const result = {};
    if (map2 !== null) {
      Object.keys(map2).forEach(function(style) {
        map2[style].forEach(function(alias) {
          result[String(alias)] = style;
        });
      });
    }
    return result;
  }
  function Type2(tag, options) {
    options = options || {};
    Object.keys(options).forEach(function(name) {
      if (TYPE_CONSTRUCTOR_OPTIONS.indexOf(name) === -1) {
        throw new YAMLException2('Unknown option "' + name + '" is met in definition of "' + tag + '" YAML type.');
      }
    });
    this.options = options;
    this.tag = tag;
    this.kind = options["kind"] || null;
    this.resolve = options["resolve"] || function() {
      return true;
    };
    this.construct = options["construct"] || function(data) {
      return data;
    };
    this.instanceOf = options["instanceOf"] || null;
    this.predicate = options["predicate"] || null;
    this.represent = options["represent"] || null;
    this.representName = options["representName"] || null;
    this.defaultStyle = options["defaultStyle"] || null;
    this.multi = options["multi"] || false;
    this.styleAliases = compileStyleAliases(options["styleAliases"] || null);
    if (YAML_NODE_KINDS.indexOf(this.kind) === -1) {
      throw new YAMLException2('Unknown kind "' + this.kind + '" is specified for "' + tag + '" YAML type.');
    }
  }
  type = Type2;
  return type;
}
var schema;
var hasRequiredSchema;
function requireSchema() {
  if (hasRequiredSchema) return schema;
  hasRequiredSchema = 1;
  const YAMLException2 = requireException();
  const Type2 = requireType();
  function compileList(schema2, name) {
    const result = [];
    schema2[name].forEach(function(currentType) {
      let newIndex = result.length;
      result.forEach(function(previousType, previousIndex) {
        if (previousType.tag === currentType.tag && previousType.kind === currentType.kind && previousType.multi === currentType.multi) {
          newIndex = previousIndex;
        }
      });
      result[newIndex] = currentType;
    });
    return result;
  }
  function compileMap() {
    const result = {
      scalar: {},
      sequence: {},
      mapping: {},
      fallback: {},
      multi: {
        scalar: [],
        sequence: [],
        mapping: [],
        fallback: []
      }
    };
    function collectType(type2) {
      if (type2.multi) {
        result.multi[type2.kind].push(type2);
        result.multi["fallback"].push(type2);
      } else {
        result[type2.kind][type2.tag] = result["fallback"][type2.tag] = type2;
      }
    }
    for (let index = 0, length = arguments.length; index < length; index += 1) {
      arguments[index].forEach(collectType);
    }
    return result;
  }
  function Schema2(definition) {
    return this.extend(definition);
  }
  Schema2.prototype.extend = function extend(definition) {
    let implicit = [];
    let explicit = [];
    if (definition instanceof Type2) {
      explicit.push(definition);
    } else if (Array.isArray(definition)) {
      explicit = explicit.concat(definition);
    } else if (definition && (Array.isArray(definition.implicit) || Array.isArray(definition.explicit))) {
      if (definition.implicit) implicit = implicit.concat(definition.implicit);
      if (definition.explicit) explicit = explicit.concat(definition.explicit);
    } else {
      throw new YAMLException2("Schema.extend argument should be a Type, [ Type ], or a schema definition ({ implicit: [...], explicit: [...] })");
    }
    implicit.forEach(function(type2) {
      if (!(type2 instanceof Type2)) {
        throw new YAMLException2("Specified list of YAML types (or a single Type object) contains a non-Type object.");
      }
      if (type2.loadKind && type2.loadKind !== "scalar") {
        throw new YAMLException2("There is a non-scalar type in the implicit list of a schema. Implicit resolving of such types is not supported.");
      }
      if (type2.multi) {
        throw new YAMLException2("There is a multi type in the implicit list of a schema. Multi tags can only be listed as explicit.");
      }
    });
    explicit.forEach(function(type2) {
      if (!(type2 instanceof Type2)) {
        throw new YAMLException2("Specified list of YAML types (or a single Type object) contains a non-Type object.");
      }
    });
    const result = Object.create(Schema2.prototype);
    result.implicit = (this.implicit || []).concat(implicit);
    result.explicit = (this.explicit || []).concat(explicit);
    result.compiledImplicit = compileList(result, "implicit");
    result.compiledExplicit = compileList(result, "explicit");
    result.compiledTypeMap = compileMap(result.compiledImplicit, result.compiledExplicit);
    return result;
  };
  schema = Schema2;
  return schema;
}
var str;
var hasRequiredStr;
function requireStr() {
  if (hasRequiredStr) return str;
  hasRequiredStr = 1;
  const Type2 = requireType();
  str = new Type2("tag:yaml.org,2002:str", {
    kind: "scalar",
    construct: function(data) {
      return data !== null ? data : "";
    }
  });
  return str;
}
var seq;
var hasRequiredSeq;
function requireSeq() {
  if (hasRequiredSeq) return seq;
  hasRequiredSeq = 1;
  const Type2 = requireType();
  seq = new Type2("tag:yaml.org,2002:seq", {
    kind: "sequence",
    construct: function(data) {
      return data !== null ? data : [];
    }
  });
  return seq;
}
var map;
var hasRequiredMap;
function requireMap() {
  if (hasRequiredMap) return map;
  hasRequiredMap = 1;
  const Type2 = requireType();
  map = new Type2("tag:yaml.org,2002:map", {
    kind: "mapping",
    construct: function(data) {
      return data !== null ? data : {};
    }
  });
  return map;
}
var failsafe;
var hasRequiredFailsafe;
function requireFailsafe() {
  if (hasRequiredFailsafe) return failsafe;
  hasRequiredFailsafe = 1;
  const Schema2 = requireSchema();
  failsafe = new Schema2({
    explicit: [
      requireStr(),
      requireSeq(),
      requireMap()
    ]
  });
  return failsafe;
}
var _null;
var hasRequired_null;
function require_null() {
  if (hasRequired_null) return _null;
  hasRequired_null = 1;
  const Type2 = requireType();
  function resolveYamlNull(data) {
    if (data === null) return true;
    const max = data.length;
    return max === 1 && data === "~" || max === 4 && (data === "null" || data === "Null" || data === "NULL");
  }
  function constructYamlNull() {
    return null;
  }
  function isNull(object) {
    return object === null;
  }
  _null = new Type2("tag:yaml.org,2002:null", {
    kind: "scalar",
    resolve: resolveYamlNull,
    construct: constructYamlNull,
    predicate: isNull,
    represent: {
      canonical: function() {
        return "~";
      },
      lowercase: function() {
        return "null";
      },
      uppercase: function() {
        return "NULL";
      },
      camelcase: function() {
        return "Null";
      },
      empty: function() {
        return "";
      }
    },
    defaultStyle: "lowercase"
  });
  return _null;
}
var bool;
var hasRequiredBool;
function requireBool() {
  if (hasRequiredBool) return bool;
  hasRequiredBool = 1;
  const Type2 = requireType();
  function resolveYamlBoolean(data) {
    if (data === null) return false;
    const max = data.length;
    return max === 4 && (data === "true" || data === "True" || data === "TRUE") || max === 5 && (data === "false" || data === "False" || data === "FALSE");
  }
  function constructYamlBoolean(data) {
    return data === "true" || data === "True" || data === "TRUE";
  }
  function isBoolean(object) {
    return Object.prototype.toString.call(object) === "[object Boolean]";
  }
  bool = new Type2("tag:yaml.org,2002:bool", {
    kind: "scalar",
    resolve: resolveYamlBoolean,
    construct: constructYamlBoolean,
    predicate: isBoolean,
    represent: {
      lowercase: function(object) {
        return object ? "true" : "false";
      },
      uppercase: function(object) {
        return object ? "TRUE" : "FALSE";
      },
      camelcase: function(object) {
        return object ? "True" : "False";
      }
    },
    defaultStyle: "lowercase"
  });
  return bool;
}
var int;
var hasRequiredInt;
function requireInt() {
  if (hasRequiredInt) return int;
  hasRequiredInt = 1;
  const common2 = requireCommon();
  const Type2 = requireType();
  function isHexCode(c) {
    return c >= 48 && c <= 57 || c >= 65 && c <= 70 || c >= 97 && c <= 102;
  }
  function isOctCode(c) {
    return c >= 48 && c <= 55;
  }
  function isDecCode(c) {
    return c >= 48 && c <= 57;
  }
  function resolveYamlInteger(data) {
    if (data === null) return false;
    const max = data.length;
    let index = 0;
    let hasDigits = false;
    if (!max) return false;
    let ch = data[index];
    if (ch === "-" || ch === "+") {
      ch = data[++index];
    }
    if (ch === "0") {
      if (index + 1 === max) return true;
      ch = data[++index];
      if (ch === "b") {
        index++;
        for (; index < max; index++) {
          ch = data[index];
          if (ch !== "0" && ch !== "1") return false;
          hasDigits = true;
        }
        return hasDigits && isFinite(parseYamlInteger(data));
      }
      if (ch === "x") {
        index++;
        for (; index < max; index++) {
          if (!isHexCode(data.charCodeAt(index))) return false;
          hasDigits = true;
        }
        return hasDigits && isFinite(parseYamlInteger(data));
      }
      if (ch === "o") {
        index++;
        for (; index < max; index++) {
          if (!isOctCode(data.charCodeAt(index))) return false;
          hasDigits = true;
        }
        return hasDigits && isFinite(parseYamlInteger(data));
      }
    }
    for (; index < max; index++) {
      if (!isDecCode(data.charCodeAt(index))) {
        return false;
      }
      hasDigits = true;
    }
    if (!hasDigits) return false;
    return isFinite(parseYamlInteger(data));
  }
  function parseYamlInteger(data) {
    let value = data;
    let sign = 1;
    let ch = value[0];
    if (ch === "-" || ch === "+") {
      if (ch === "-") sign = -1;
      value = value.slice(1);
      ch = value[0];
    }
    if (value === "0") return 0;
    if (ch === "0") {
      if (value[1] === "b") return sign * parseInt(value.slice(2), 2);
      if (value[1] === "x") return sign * parseInt(value.slice(2), 16);
      if (value[1] === "o") return sign * parseInt(value.slice(2), 8);
    }
    return sign * parseInt(value, 10);
  }
  function constructYamlInteger(data) {
    return parseYamlInteger(data);
  }
  function isInteger(object) {
    return Object.prototype.toString.call(object) === "[object Number]" && (object % 1 === 0 && !common2.isNegativeZero(object));
  }
  int = new Type2("tag:yaml.org,2002:int", {
    kind: "scalar",
    resolve: resolveYamlInteger,
    construct: constructYamlInteger,
    predicate: isInteger,
    represent: {
      binary: function(obj) {
        return obj >= 0 ? "0b" + obj.toString(2) : "-0b" + obj.toString(2).slice(1);
      },
      octal: function(obj) {
        return obj >= 0 ? "0o" + obj.toString(8) : "-0o" + obj.toString(8).slice(1);
      },
      decimal: function(obj) {
        return obj.toString(10);
      },
      hexadecimal: function(obj) {
        return obj >= 0 ? "0x" + obj.toString(16).toUpperCase() : "-0x" + obj.toString(16).toUpperCase().slice(1);
      }
    },
    defaultStyle: "decimal",
    styleAliases: {
      binary: [2, "bin"],
      octal: [8, "oct"],
      decimal: [10, "dec"],
      hexadecimal: [16, "hex"]
    }
  });
  return int;
}
var float;
var hasRequiredFloat;
function requireFloat() {
  if (hasRequiredFloat) return float;
  hasRequiredFloat = 1;
  const common2 = requireCommon();
  const Type2 = requireType();
  const YAML_FLOAT_PATTERN = new RegExp(
    // 2.5e4, 2.5 and integers
    "^(?:[-+]?(?:[0-9]+)(?:\\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|\\.[0-9]+(?:[eE][-+]?[0-9]+)?|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$"
  );
  const YAML_FLOAT_SPECIAL_PATTERN = new RegExp(
    "^(?:[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$"
  );
  function resolveYamlFloat(data) {
    if (data === null) return false;
    if (!YAML_FLOAT_PATTERN.test(data)) {
      return false;
    }
    if (isFinite(parseFloat(data, 10))) {
      return true;
    }
    return YAML_FLOAT_SPECIAL_PATTERN.test(data);
  }
  function constructYamlFloat(data) {
    let value = data.toLowerCase();
    const sign = value[0] === "-" ? -1 : 1;
    if ("+-".indexOf(value[0]) >= 0) {
      value = value.slice(1);
    }
    if (value === ".inf") {
      return sign === 1 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    } else if (value === ".nan") {
      return NaN;
    }
    return sign * parseFloat(value, 10);
  }
  const SCIENTIFIC_WITHOUT_DOT = /^[-+]?[0-9]+e/;
  function representYamlFloat(object, style) {
    if (isNaN(object)) {
      switch (style) {
        case "lowercase":
          return ".nan";
        case "uppercase":
          return ".NAN";
        case "camelcase":
          return ".NaN";
      }
    } else if (Number.POSITIVE_INFINITY === object) {
      switch (style) {
        case "lowercase":
          return ".inf";
        case "uppercase":
          return ".INF";
        case "camelcase":
          return ".Inf";
      }
    } else if (Number.NEGATIVE_INFINITY === object) {
      switch (style) {
        case "lowercase":
          return "-.inf";
        case "uppercase":
          return "-.INF";
        case "camelcase":
          return "-.Inf";
      }
    } else if (common2.isNegativeZero(object)) {
      return "-0.0";
    }
    const res = object.toString(10);
    return SCIENTIFIC_WITHOUT_DOT.test(res) ? res.replace("e", ".e") : res;
  }
  function isFloat(object) {
    return Object.prototype.toString.call(object) === "[object Number]" && (object % 1 !== 0 || common2.isNegativeZero(object));
  }
  float = new Type2("tag:yaml.org,2002:float", {
    kind: "scalar",
    resolve: resolveYamlFloat,
    construct: constructYamlFloat,
    predicate: isFloat,
    represent: representYamlFloat,
    defaultStyle: "lowercase"
  });
  return float;
}
var json;
var hasRequiredJson;
function requireJson() {
  if (hasRequiredJson) return json;
  hasRequiredJson = 1;
  json = requireFailsafe().extend({
    implicit: [
      require_null(),
      requireBool(),
      requireInt(),
      requireFloat()
    ]
  });
  return json;
}
var core;
var hasRequiredCore;
function requireCore() {
  if (hasRequiredCore) return core;
  hasRequiredCore = 1;
  core = requireJson();
  return core;
}
var timestamp;
var hasRequiredTimestamp;
function requireTimestamp() {
  if (hasRequiredTimestamp) return timestamp;
  hasRequiredTimestamp = 1;
  const Type2 = requireType();
  const YAML_DATE_REGEXP = new RegExp(
    "^([0-9][0-9][0-9][0-9])-([0-9][0-9])-([0-9][0-9])$"
  );
  const YAML_TIMESTAMP_REGEXP = new RegExp(
    "^([0-9][0-9][0-9][0-9])-([0-9][0-9]?)-([0-9][0-9]?)(?:[Tt]|[ \\t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\\.([0-9]*))?(?:[ \\t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?$"
  );
  function resolveYamlTimestamp(data) {
    if (data === null) return false;
    if (YAML_DATE_REGEXP.exec(data) !== null) return true;
    if (YAML_TIMESTAMP_REGEXP.exec(data) !== null) return true;
    return false;
  }
  function constructYamlTimestamp(data) {
    let fraction = 0;
    let delta = null;
    let match = YAML_DATE_REGEXP.exec(data);
    if (match === null) match = YAML_TIMESTAMP_REGEXP.exec(data);
    if (match === null) throw new Error("Date resolve error");
    const year = +match[1];
    const month = +match[2] - 1;
    const day = +match[3];
    if (!match[4]) {
      return new Date(Date.UTC(year, month, day));
    }
    const hour = +match[4];
    const minute = +match[5];
    const second = +match[6];
    if (match[7]) {
      fraction = match[7].slice(0, 3);
      while (fraction.length < 3) {
        fraction += "0";
      }
      fraction = +fraction;
    }
    if (match[9]) {
      const tzHour = +match[10];
      const tzMinute = +(match[11] || 0);
      delta = (tzHour * 60 + tzMinute) * 6e4;
      if (match[9] === "-") delta = -delta;
    }
    const date = new Date(Date.UTC(year, month, day, hour, minute, second, fraction));
    if (delta) date.setTime(date.getTime() - delta);
    return date;
  }
  function representYamlTimestamp(object) {
    return object.toISOString();
  }
  timestamp = new Type2("tag:yaml.org,2002:timestamp", {
    kind: "scalar",
    resolve: resolveYamlTimestamp,
    construct: constructYamlTimestamp,
    instanceOf: Date,
    represent: representYamlTimestamp
  });
  return timestamp;
}
var merge;
var hasRequiredMerge;
function requireMerge() {
  if (hasRequiredMerge) return merge;
  hasRequiredMerge = 1;
  const Type2 = requireType();
  function resolveYamlMerge(data) {
    return data === "<<" || data === null;
  }
  merge = new Type2("tag:yaml.org,2002:merge", {
    kind: "scalar",
    resolve: resolveYamlMerge
  });
  return merge;
}
var binary;
var hasRequiredBinary;
function requireBinary() {
  if (hasRequiredBinary) return binary;
  hasRequiredBinary = 1;
  const Type2 = requireType();
  const BASE64_MAP = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n\r";
  function resolveYamlBinary(data) {
    if (data === null) return false;
    let bitlen = 0;
    const max = data.length;
    const map2 = BASE64_MAP;
    for (let idx = 0; idx < max; idx++) {
      const code = map2.indexOf(data.charAt(idx));
      if (code > 64) continue;
      if (code < 0) return false;
      bitlen += 6;
    }
    return bitlen % 8 === 0;
  }
  function constructYamlBinary(data) {
    const input = data.replace(/[\r\n=]/g, "");
    const max = input.length;
    const map2 = BASE64_MAP;
    let bits = 0;
    const result = [];
    for (let idx = 0; idx < max; idx++) {
      if (idx % 4 === 0 && idx) {
        result.push(bits >> 16 & 255);
        result.push(bits >> 8 & 255);
        result.push(bits & 255);
      }
      bits = bits << 6 | map2.indexOf(input.charAt(idx));
    }
    const tailbits = max % 4 * 6;
    if (tailbits === 0) {
      result.push(bits >> 16 & 255);
      result.push(bits >> 8 & 255);
      result.push(bits & 255);
    } else if (tailbits === 18) {
      result.push(bits >> 10 & 255);
      result.push(bits >> 2 & 255);
    } else if (tailbits === 12) {
      result.push(bits >> 4 & 255);
    }
    return new Uint8Array(result);
  }
  function representYamlBinary(object) {
    let result = "";
    let bits = 0;
    const max = object.length;
    const map2 = BASE64_MAP;
    for (let idx = 0; idx < max; idx++) {
      if (idx % 3 === 0 && idx) {
        result += map2[bits >> 18 & 63];
        result += map2[bits >> 12 & 63];
        result += map2[bits >> 6 & 63];
        result += map2[bits & 63];
      }
      bits = (bits << 8) + object[idx];
    }
    const tail = max % 3;
    if (tail === 0) {
      result += map2[bits >> 18 & 63];
      result += map2[bits >> 12 & 63];
      result += map2[bits >> 6 & 63];
      result += map2[bits & 63];
    } else if (tail === 2) {
      result += map2[bits >> 10 & 63];
      result += map2[bits >> 4 & 63];
      result += map2[bits << 2 & 63];
      result += map2[64];
    } else if (tail === 1) {
      result += map2[bits >> 2 & 63];
      result += map2[bits << 4 & 63];
      result += map2[64];
      result += map2[64];
    }
    return result;
  }
  function isBinary(obj) {
    return Object.prototype.toString.call(obj) === "[object Uint8Array]";
  }
  binary = new Type2("tag:yaml.org,2002:binary", {
    kind: "scalar",
    resolve: resolveYamlBinary,
    construct: constructYamlBinary,
    predicate: isBinary,
    represent: representYamlBinary
  });
  return binary;
}
var omap;
var hasRequiredOmap;
function requireOmap() {
  if (hasRequiredOmap) return omap;
  hasRequiredOmap = 1;
  const Type2 = requireType();
  const _hasOwnProperty = Object.prototype.hasOwnProperty;
  const _toString = Object.prototype.toString;
  function resolveYamlOmap(data) {
    if (data === null) return true;
    const objectKeys = {};
    const object = data;
    for (let index = 0, length = object.length; index < length; index += 1) {
      const pair = object[index];
      let pairHasKey = false;
      if (_toString.call(pair) !== "[object Object]") return false;
      let pairKey;
      for (pairKey in pair) {
        if (_hasOwnProperty.call(pair, pairKey)) {
          if (!pairHasKey) pairHasKey = true;
          else return false;
        }
      }
      if (!pairHasKey) return false;
      if (_hasOwnProperty.call(objectKeys, pairKey)) return false;
      Object.defineProperty(objectKeys, pairKey, { value: true });
    }
    return true;
  }
  function constructYamlOmap(data) {
    return data !== null ? data : [];
  }
  omap = new Type2("tag:yaml.org,2002:omap", {
    kind: "sequence",
    resolve: resolveYamlOmap,
    construct: constructYamlOmap
  });
  return omap;
}
var pairs;
var hasRequiredPairs;
function requirePairs() {
  if (hasRequiredPairs) return pairs;
  hasRequiredPairs = 1;
  const Type2 = requireType();
  const _toString = Object.prototype.toString;
  function resolveYamlPairs(data) {
    if (data === null) return true;
    const object = data;
    const result = new Array(object.length);
    for (let index = 0, length = object.length; index < length; index += 1) {
      const pair = object[index];
      if (_toString.call(pair) !== "[object Object]") return false;
      const keys = Object.keys(pair);
      if (keys.length !== 1) return false;
      result[index] = [keys[0], pair[keys[0]]];
    }
    return true;
  }
  function constructYamlPairs(data) {
    if (data === null) return [];
    const object = data;
    const result = new Array(object.length);
    for (let index = 0, length = object.length; index < length; index += 1) {
      const pair = object[index];
      const keys = Object.keys(pair);
      result[index] = [keys[0], pair[keys[0]]];
    }
    return result;
  }
  pairs = new Type2("tag:yaml.org,2002:pairs", {
    kind: "sequence",
    resolve: resolveYamlPairs,
    construct: constructYamlPairs
  });
  return pairs;
}
var set;
var hasRequiredSet;
function requireSet() {
  if (hasRequiredSet) return set;
  hasRequiredSet = 1;
  const Type2 = requireType();
  const _hasOwnProperty = Object.prototype.hasOwnProperty;
  function resolveYamlSet(data) {
    if (data === null) return true;
    const object = data;
    for (const key in object) {
      if (_hasOwnProperty.call(object, key)) {
        if (object[key] !== null) return false;
      }
    }
    return true;
  }
  function constructYamlSet(data) {
    return data !== null ? data : {};
  }
  set = new Type2("tag:yaml.org,2002:set", {
    kind: "mapping",
    resolve: resolveYamlSet,
    construct: constructYamlSet
  });
  return set;
}
var _default;
var hasRequired_default;
function require_default() {
  if (hasRequired_default) return _default;
  hasRequired_default = 1;
  _default = requireCore().extend({
    implicit: [
      requireTimestamp(),
      requireMerge()
    ],
    explicit: [
      requireBinary(),
      requireOmap(),
      requirePairs(),
      requireSet()
    ]
  });
  return _default;
}
var hasRequiredLoader;
function requireLoader() {
  if (hasRequiredLoader) return loader;
  hasRequiredLoader = 1;
  const common2 = requireCommon();
  const YAMLException2 = requireException();
  const makeSnippet = requireSnippet();
  const DEFAULT_SCHEMA2 = require_default();
  const _hasOwnProperty = Object.prototype.hasOwnProperty;
  const CONTEXT_FLOW_IN = 1;
  const CONTEXT_FLOW_OUT = 2;
  const CONTEXT_BLOCK_IN = 3;
  const CONTEXT_BLOCK_OUT = 4;
  const CHOMPING_CLIP = 1;
  const CHOMPING_STRIP = 2;
  const CHOMPING_KEEP = 3;
  const PATTERN_NON_PRINTABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;
  const PATTERN_NON_ASCII_LINE_BREAKS = /[\x85\u2028\u2029]/;
  const PATTERN_FLOW_INDICATORS = /[,\[\]{}]/;
  const PATTERN_TAG_HANDLE = /^(?:!|!!|![0-9A-Za-z-]+!)$/;
  const PATTERN_TAG_URI = /^(?:!|[^,\[\]{}])(?:%[0-9a-f]{2}|[0-9a-z\-#;/?:@&=+$,_.!~*'()\[\]])*$/i;
  function _class(obj) {
    return Object.prototype.toString.call(obj);
  }
  function isEol(c) {
    return c === 10 || c === 13;
  }
  function isWhiteSpace(c) {
    return c === 9 || c === 32;
  }
  function isWsOrEol(c) {
    return c === 9 || c === 32 || c === 10 || c === 13;
  }
  function isFlowIndicator(c) {
    return c === 44 || c === 91 || c === 93 || c === 123 || c === 125;
  }
  function fromHexCode(c) {
    if (c >= 48 && c <= 57) {
      return c - 48;
    }
    const lc = c | 32;
    if (lc >= 97 && lc <= 102) {
      return lc - 97 + 10;
    }
    return -1;
  }
  function escapedHexLen(c) {
    if (c === 120) {
      return 2;
    }
    if (c === 117) {
      return 4;
    }
    if (c === 85) {
      return 8;
    }
    return 0;
  }
  function fromDecimalCode(c) {
    if (c >= 48 && c <= 57) {
      return c - 48;
    }
    return -1;
  }
  function simpleEscapeSequence(c) {
    switch (c) {
      case 48:
        return "\0";
      case 97:
        return "\x07";
      case 98:
        return "\b";
      case 116:
        return "	";
      case 9:
        return "	";
      case 110:
        return "\n";
      case 118:
        return "\v";
      case 102:
        return "\f";
      case 114:
        return "\r";
      case 101:
        return "\x1B";
      case 32:
        return " ";
      case 34:
        return '"';
      case 47:
        return "/";
      case 92:
        return "\\";
      case 78:
        return "\x85";
      case 95:
        return "\xA0";
      case 76:
        return "\u2028";
      case 80:
        return "\u2029";
      default:
        return "";
    }
  }
  function charFromCodepoint(c) {
    if (c <= 65535) {
      return String.fromCharCode(c);
    }
    return String.fromCharCode(
      (c - 65536 >> 10) + 55296,
      (c - 65536 & 1023) + 56320
    );
  }
  function setProperty(object, key, value) {
    if (key === "__proto__") {
      Object.defineProperty(object, key, {
        configurable: true,
        enumerable: true,
        writable: true,
        value
      });
    } else {
      object[key] = value;
    }
  }
  const simpleEscapeCheck = new Array(256);
  const simpleEscapeMap = new Array(256);
  for (let i = 0; i < 256; i++) {
    simpleEscapeCheck[i] = simpleEscapeSequence(i) ? 1 : 0;
    simpleEscapeMap[i] = simpleEscapeSequence(i);
  }
  function State(input, options) {
    this.input = input;
    this.filename = options["filename"] || null;
    this.schema = options["schema"] || DEFAULT_SCHEMA2;
    this.onWarning = options["onWarning"] || null;
    this.legacy = options["legacy"] || false;
    this.json = options["json"] || false;
    this.listener = options["listener"] || null;
    this.maxDepth = typeof options["maxDepth"] === "number" ? options["maxDepth"] : 100;
    this.maxTotalMergeKeys = typeof options["maxTotalMergeKeys"] === "number" ? options["maxTotalMergeKeys"] : 1e4;
    this.implicitTypes = this.schema.compiledImplicit;
    this.typeMap = this.schema.compiledTypeMap;
    this.length = input.length;
    this.position = 0;
    this.line = 0;
    this.lineStart = 0;
    this.lineIndent = 0;
    this.depth = 0;
    this.totalMergeKeys = 0;
    this.firstTabInLine = -1;
    this.documents = [];
    this.anchorMapTransactions = [];
  }
  function generateError(state, message) {
    const mark2 = {
      name: state.filename,
      buffer: state.input.slice(0, -1),
      // omit trailing \0
      position: state.position,
      line: state.line,
      column: state.position - state.lineStart
    };
    mark2.snippet = makeSnippet(mark2);
    return new YAMLException2(message, mark2);
  }
  function throwError(state, message) {
    throw generateError(state, message);
  }
  function throwWarning(state, message) {
    if (state.onWarning) {
      state.onWarning.call(null, generateError(state, message));
    }
  }
  function storeAnchor(state, name, value) {
    const transactions = state.anchorMapTransactions;
    if (transactions.length !== 0) {
      const transaction = transactions[transactions.length - 1];
      if (!_hasOwnProperty.call(transaction, name)) {
        transaction[name] = {
          existed: _hasOwnProperty.call(state.anchorMap, name),
          value: state.anchorMap[name]
        };
      }
    }
    state.anchorMap[name] = value;
  }
  function beginAnchorTransaction(state) {
    state.anchorMapTransactions.push(/* @__PURE__ */ Object.create(null));
  }
  function commitAnchorTransaction(state) {
    const transaction = state.anchorMapTransactions.pop();
    const transactions = state.anchorMapTransactions;
    if (transactions.length === 0) return;
    const parent = transactions[transactions.length - 1];
    const names = Object.keys(transaction);
    for (let index = 0, length = names.length; index < length; index += 1) {
      const name = names[index];
      if (!_hasOwnProperty.call(parent, name)) {
        parent[name] = transaction[name];
      }
    }
  }
  function rollbackAnchorTransaction(state) {
    const transaction = state.anchorMapTransactions.pop();
    const names = Object.keys(transaction);
    for (let index = names.length - 1; index >= 0; index -= 1) {
      const entry = transaction[names[index]];
      if (entry.existed) {
        state.anchorMap[names[index]] = entry.value;
      } else {
        delete state.anchorMap[names[index]];
      }
    }
  }
  function snapshotState(state) {
    return {
      position: state.position,
      line: state.line,
      lineStart: state.lineStart,
      lineIndent: state.lineIndent,
      firstTabInLine: state.firstTabInLine,
      tag: state.tag,
      anchor: state.anchor,
      kind: state.kind,
      result: state.result
    };
  }
  function restoreState(state, snapshot) {
    state.position = snapshot.position;
    state.line = snapshot.line;
    state.lineStart = snapshot.lineStart;
    state.lineIndent = snapshot.lineIndent;
    state.firstTabInLine = snapshot.firstTabInLine;
    state.tag = snapshot.tag;
    state.anchor = snapshot.anchor;
    state.kind = snapshot.kind;
    state.result = snapshot.result;
  }
  const directiveHandlers = {
    YAML: function handleYamlDirective(state, name, args) {
      if (state.version !== null) {
        throwError(state, "duplication of %YAML directive");
      }
      if (args.length !== 1) {
        throwError(state, "YAML directive accepts exactly one argument");
      }
      const match = /^([0-9]+)\.([0-9]+)$/.exec(args[0]);
      if (match === null) {
        throwError(state, "ill-formed argument of the YAML directive");
      }
      const major = parseInt(match[1], 10);
      const minor = parseInt(match[2], 10);
      if (major !== 1) {
        throwError(state, "unacceptable YAML version of the document");
      }
      state.version = args[0];
      state.checkLineBreaks = minor < 2;
      if (minor !== 1 && minor !== 2) {
        throwWarning(state, "unsupported YAML version of the document");
      }
    },
    TAG: function handleTagDirective(state, name, args) {
      let prefix;
      if (args.length !== 2) {
        throwError(state, "TAG directive accepts exactly two arguments");
      }
      const handle = args[0];
      prefix = args[1];
      if (!PATTERN_TAG_HANDLE.test(handle)) {
        throwError(state, "ill-formed tag handle (first argument) of the TAG directive");
      }
      if (_hasOwnProperty.call(state.tagMap, handle)) {
        throwError(state, 'there is a previously declared suffix for "' + handle + '" tag handle');
      }
      if (!PATTERN_TAG_URI.test(prefix)) {
        throwError(state, "ill-formed tag prefix (second argument) of the TAG directive");
      }
      try {
        prefix = decodeURIComponent(prefix);
      } catch (err) {
        throwError(state, "tag prefix is malformed: " + prefix);
      }
      state.tagMap[handle] = prefix;
    }
  };
  function captureSegment(state, start, end, checkJson) {
    if (start < end) {
      const _result = state.input.slice(start, end);
      if (checkJson) {
        for (let _position = 0, _length = _result.length; _position < _length; _position += 1) {
          const _character = _result.charCodeAt(_position);
          if (!(_character === 9 || _character >= 32 && _character <= 1114111)) {
            throwError(state, "expected valid JSON character");
          }
        }
      } else if (PATTERN_NON_PRINTABLE.test(_result)) {
        throwError(state, "the stream contains non-printable characters");
      }
      state.result += _result;
    }
  }
  function chargeMergeWork(state) {
    state.totalMergeKeys++;
    if (state.maxTotalMergeKeys !== -1 && state.totalMergeKeys > state.maxTotalMergeKeys) {
      throwError(state, "merge keys exceeded maxTotalMergeKeys (" + state.maxTotalMergeKeys + ")");
    }
  }
  function mergeMappings(state, destination, source, overridableKeys) {
    if (!common2.isObject(source)) {
      throwError(state, "cannot merge mappings; the provided source object is unacceptable");
    }
    chargeMergeWork(state);
    const sourceKeys = Object.keys(source);
    for (let index = 0, quantity = sourceKeys.length; index < quantity; index += 1) {
      const key = sourceKeys[index];
      chargeMergeWork(state);
      if (!_hasOwnProperty.call(destination, key)) {
        setProperty(destination, key, source[key]);
        overridableKeys[key] = true;
      }
    }
  }
  function storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, valueNode, startLine, startLineStart, startPos) {
    if (Array.isArray(keyNode)) {
      keyNode = Array.prototype.slice.call(keyNode);
      for (let index = 0, quantity = keyNode.length; index < quantity; index += 1) {
        if (Array.isArray(keyNode[index])) {
          throwError(state, "nested arrays are not supported inside keys");
        }
        if (typeof keyNode === "object" && _class(keyNode[index]) === "[object Object]") {
          keyNode[index] = "[object Object]";
        }
      }
    }
    if (typeof keyNode === "object" && _class(keyNode) === "[object Object]") {
      keyNode = "[object Object]";
    }
    keyNode = String(keyNode);
    if (_result === null) {
      _result = {};
    }
    if (keyTag === "tag:yaml.org,2002:merge") {
      if (Array.isArray(valueNode)) {
        if (valueNode.length > 100) {
          throwError(state, "abnormal merge sequence size");
        }
        for (let index = 0, quantity = valueNode.length; index < quantity; index += 1) {
          mergeMappings(state, _result, valueNode[index], overridableKeys);
        }
      } else {
        mergeMappings(state, _result, valueNode, overridableKeys);
      }
    } else {
      if (!state.json && !_hasOwnProperty.call(overridableKeys, keyNode) && _hasOwnProperty.call(_result, keyNode)) {
        state.line = startLine || state.line;
        state.lineStart = startLineStart || state.lineStart;
        state.position = startPos || state.position;
        throwError(state, "duplicated mapping key");
      }
      setProperty(_result, keyNode, valueNode);
      delete overridableKeys[keyNode];
    }
    return _result;
  }
  function readLineBreak(state) {
    const ch = state.input.charCodeAt(state.position);
    if (ch === 10) {
      state.position++;
    } else if (ch === 13) {
      state.position++;
      if (state.input.charCodeAt(state.position) === 10) {
        state.position++;
      }
    } else {
      throwError(state, "a line break is expected");
    }
    state.line += 1;
    state.lineStart = state.position;
    state.firstTabInLine = -1;
  }
  function skipSeparationSpace(state, allowComments, checkIndent) {
    let lineBreaks = 0;
    let ch = state.input.charCodeAt(state.position);
    while (ch !== 0) {
      while (isWhiteSpace(ch)) {
        if (ch === 9 && state.firstTabInLine === -1) {
          state.firstTabInLine = state.position;
        }
        ch = state.input.charCodeAt(++state.position);
      }
      if (allowComments && ch === 35) {
        do {
          ch = state.input.charCodeAt(++state.position);
        } while (ch !== 10 && ch !== 13 && ch !== 0);
      }
      if (isEol(ch)) {
        readLineBreak(state);
        ch = state.input.charCodeAt(state.position);
        lineBreaks++;
        state.lineIndent = 0;
        while (ch === 32) {
          state.lineIndent++;
          ch = state.input.charCodeAt(++state.position);
        }
      } else {
        break;
      }
    }
    if (checkIndent !== -1 && lineBreaks !== 0 && state.lineIndent < checkIndent) {
      throwWarning(state, "deficient indentation");
    }
    return lineBreaks;
  }
  function testDocumentSeparator(state) {
    let _position = state.position;
    let ch = state.input.charCodeAt(_position);
    if ((ch === 45 || ch === 46) && ch === state.input.charCodeAt(_position + 1) && ch === state.input.charCodeAt(_position + 2)) {
      _position += 3;
      ch = state.input.charCodeAt(_position);
      if (ch === 0 || isWsOrEol(ch)) {
        return true;
      }
    }
    return false;
  }
  function writeFoldedLines(state, count) {
    if (count === 1) {
      state.result += " ";
    } else if (count > 1) {
      state.result += common2.repeat("\n", count - 1);
    }
  }
  function readPlainScalar(state, nodeIndent, withinFlowCollection) {
    let captureStart;
    let captureEnd;
    let hasPendingContent;
    let _line;
    let _lineStart;
    let _lineIndent;
    const _kind = state.kind;
    const _result = state.result;
    let ch = state.input.charCodeAt(state.position);
    if (isWsOrEol(ch) || isFlowIndicator(ch) || ch === 35 || ch === 38 || ch === 42 || ch === 33 || ch === 124 || ch === 62 || ch === 39 || ch === 34 || ch === 37 || ch === 64 || ch === 96) {
      return false;
    }
    if (ch === 63 || ch === 45) {
      const following = state.input.charCodeAt(state.position + 1);
      if (isWsOrEol(following) || withinFlowCollection && isFlowIndicator(following)) {
        return false;
      }
    }
    state.kind = "scalar";
    state.result = "";
    captureStart = captureEnd = state.position;
    hasPendingContent = false;
    while (ch !== 0) {
      if (ch === 58) {
        const following = state.input.charCodeAt(state.position + 1);
        if (isWsOrEol(following) || withinFlowCollection && isFlowIndicator(following)) {
          break;
        }
      } else if (ch === 35) {
        const preceding = state.input.charCodeAt(state.position - 1);
        if (isWsOrEol(preceding)) {
          break;
        }
      } else if (state.position === state.lineStart && testDocumentSeparator(state) || withinFlowCollection && isFlowIndicator(ch)) {
        break;
      } else if (isEol(ch)) {
        _line = state.line;
        _lineStart = state.lineStart;
        _lineIndent = state.lineIndent;
        skipSeparationSpace(state, false, -1);
        if (state.lineIndent >= nodeIndent) {
          hasPendingContent = true;
          ch = state.input.charCodeAt(state.position);
          continue;
        } else {
          state.position = captureEnd;
          state.line = _line;
          state.lineStart = _lineStart;
          state.lineIndent = _lineIndent;
          break;
        }
      }
      if (hasPendingContent) {
        captureSegment(state, captureStart, captureEnd, false);
        writeFoldedLines(state, state.line - _line);
        captureStart = captureEnd = state.position;
        hasPendingContent = false;
      }
      if (!isWhiteSpace(ch)) {
        captureEnd = state.position + 1;
      }
      ch = state.input.charCodeAt(++state.position);
    }
    captureSegment(state, captureStart, captureEnd, false);
    if (state.result) {
      return true;
    }
    state.kind = _kind;
    state.result = _result;
    return false;
  }
  function readSingleQuotedScalar(state, nodeIndent) {
    let captureStart;
    let captureEnd;
    let ch = state.input.charCodeAt(state.position);
    if (ch !== 39) {
      return false;
    }
    state.kind = "scalar";
    state.result = "";
    state.position++;
    captureStart = captureEnd = state.position;
    while ((ch = state.input.charCodeAt(state.position)) !== 0) {
      if (ch === 39) {
        captureSegment(state, captureStart, state.position, true);
        ch = state.input.charCodeAt(++state.position);
        if (ch === 39) {
          captureStart = state.position;
          state.position++;
          captureEnd = state.position;
        } else {
          return true;
        }
      } else if (isEol(ch)) {
        captureSegment(state, captureStart, captureEnd, true);
        writeFoldedLines(state, skipSeparationSpace(state, false, nodeIndent));
        captureStart = captureEnd = state.position;
      } else if (state.position === state.lineStart && testDocumentSeparator(state)) {
        throwError(state, "unexpected end of the document within a single quoted scalar");
      } else {
        state.position++;
        if (!isWhiteSpace(ch)) {
          captureEnd = state.position;
        }
      }
    }
    throwError(state, "unexpected end of the stream within a single quoted scalar");
  }
  function readDoubleQuotedScalar(state, nodeIndent) {
    let captureStart;
    let captureEnd;
    let tmp;
    let ch = state.input.charCodeAt(state.position);
    if (ch !== 34) {
      return false;
    }
    state.kind = "scalar";
    state.result = "";
    state.position++;
    captureStart = captureEnd = state.position;
    while ((ch = state.input.charCodeAt(state.position)) !== 0) {
      if (ch === 34) {
        captureSegment(state, captureStart, state.position, true);
        state.position++;
        return true;
      } else if (ch === 92) {
        captureSegment(state, captureStart, state.position, true);
        ch = state.input.charCodeAt(++state.position);
        if (isEol(ch)) {
          skipSeparationSpace(state, false, nodeIndent);
        } else if (ch < 256 && simpleEscapeCheck[ch]) {
          state.result += simpleEscapeMap[ch];
          state.position++;
        } else if ((tmp = escapedHexLen(ch)) > 0) {
          let hexLength = tmp;
          let hexResult = 0;
          for (; hexLength > 0; hexLength--) {
            ch = state.input.charCodeAt(++state.position);
            if ((tmp = fromHexCode(ch)) >= 0) {
              hexResult = (hexResult << 4) + tmp;
            } else {
              throwError(state, "expected hexadecimal character");
            }
          }
          state.result += charFromCodepoint(hexResult);
          state.position++;
        } else {
          throwError(state, "unknown escape sequence");
        }
        captureStart = captureEnd = state.position;
      } else if (isEol(ch)) {
        captureSegment(state, captureStart, captureEnd, true);
        writeFoldedLines(state, skipSeparationSpace(state, false, nodeIndent));
        captureStart = captureEnd = state.position;
      } else if (state.position === state.lineStart && testDocumentSeparator(state)) {
        throwError(state, "unexpected end of the document within a double quoted scalar");
      } else {
        state.position++;
        if (!isWhiteSpace(ch)) {
          captureEnd = state.position;
        }
      }
    }
    throwError(state, "unexpected end of the stream within a double quoted scalar");
  }
  function readFlowCollection(state, nodeIndent) {
    let readNext = true;
    let _line;
    let _lineStart;
    let _pos;
    const _tag = state.tag;
    let _result;
    const _anchor = state.anchor;
    let terminator;
    let isPair;
    let isExplicitPair;
    let isMapping;
    const overridableKeys = /* @__PURE__ */ Object.create(null);
    let keyNode;
    let keyTag;
    let valueNode;
    let ch = state.input.charCodeAt(state.position);
    if (ch === 91) {
      terminator = 93;
      isMapping = false;
      _result = [];
    } else if (ch === 123) {
      terminator = 125;
      isMapping = true;
      _result = {};
    } else {
      return false;
    }
    if (state.anchor !== null) {
      storeAnchor(state, state.anchor, _result);
    }
    ch = state.input.charCodeAt(++state.position);
    while (ch !== 0) {
      skipSeparationSpace(state, true, nodeIndent);
      ch = state.input.charCodeAt(state.position);
      if (ch === terminator) {
        state.position++;
        state.tag = _tag;
        state.anchor = _anchor;
        state.kind = isMapping ? "mapping" : "sequence";
        state.result = _result;
        return true;
      } else if (!readNext) {
        throwError(state, "missed comma between flow collection entries");
      } else if (ch === 44) {
        throwError(state, "expected the node content, but found ','");
      }
      keyTag = keyNode = valueNode = null;
      isPair = isExplicitPair = false;
      if (ch === 63) {
        const following = state.input.charCodeAt(state.position + 1);
        if (isWsOrEol(following)) {
          isPair = isExplicitPair = true;
          state.position++;
          skipSeparationSpace(state, true, nodeIndent);
        }
      }
      _line = state.line;
      _lineStart = state.lineStart;
      _pos = state.position;
      composeNode(state, nodeIndent, CONTEXT_FLOW_IN, false, true);
      keyTag = state.tag;
      keyNode = state.result;
      skipSeparationSpace(state, true, nodeIndent);
      ch = state.input.charCodeAt(state.position);
      if ((isExplicitPair || state.line === _line) && ch === 58) {
        isPair = true;
        ch = state.input.charCodeAt(++state.position);
        skipSeparationSpace(state, true, nodeIndent);
        composeNode(state, nodeIndent, CONTEXT_FLOW_IN, false, true);
        valueNode = state.result;
      }
      if (isMapping) {
        storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, valueNode, _line, _lineStart, _pos);
      } else if (isPair) {
        _result.push(storeMappingPair(state, null, overridableKeys, keyTag, keyNode, valueNode, _line, _lineStart, _pos));
      } else {
        _result.push(keyNode);
      }
      skipSeparationSpace(state, true, nodeIndent);
      ch = state.input.charCodeAt(state.position);
      if (ch === 44) {
        readNext = true;
        ch = state.input.charCodeAt(++state.position);
      } else {
        readNext = false;
      }
    }
    throwError(state, "unexpected end of the stream within a flow collection");
  }
  function readBlockScalar(state, nodeIndent) {
    let folding;
    let chomping = CHOMPING_CLIP;
    let didReadContent = false;
    let detectedIndent = false;
    let textIndent = nodeIndent;
    let emptyLines = 0;
    let atMoreIndented = false;
    let tmp;
    let ch = state.input.charCodeAt(state.position);
    if (ch === 124) {
      folding = false;
    } else if (ch === 62) {
      folding = true;
    } else {
      return false;
    }
    state.kind = "scalar";
    state.result = "";
    while (ch !== 0) {
      ch = state.input.charCodeAt(++state.position);
      if (ch === 43 || ch === 45) {
        if (CHOMPING_CLIP === chomping) {
          chomping = ch === 43 ? CHOMPING_KEEP : CHOMPING_STRIP;
        } else {
          throwError(state, "repeat of a chomping mode identifier");
        }
      } else if ((tmp = fromDecimalCode(ch)) >= 0) {
        if (tmp === 0) {
          throwError(state, "bad explicit indentation width of a block scalar; it cannot be less than one");
        } else if (!detectedIndent) {
          textIndent = nodeIndent + tmp - 1;
          detectedIndent = true;
        } else {
          throwError(state, "repeat of an indentation width identifier");
        }
      } else {
        break;
      }
    }
    if (isWhiteSpace(ch)) {
      do {
        ch = state.input.charCodeAt(++state.position);
      } while (isWhiteSpace(ch));
      if (ch === 35) {
        do {
          ch = state.input.charCodeAt(++state.position);
        } while (!isEol(ch) && ch !== 0);
      }
    }
    while (ch !== 0) {
      readLineBreak(state);
      state.lineIndent = 0;
      ch = state.input.charCodeAt(state.position);
      while ((!detectedIndent || state.lineIndent < textIndent) && ch === 32) {
        state.lineIndent++;
        ch = state.input.charCodeAt(++state.position);
      }
      if (!detectedIndent && state.lineIndent > textIndent) {
        textIndent = state.lineIndent;
      }
      if (isEol(ch)) {
        emptyLines++;
        continue;
      }
      if (!detectedIndent && textIndent === 0) {
        throwError(state, "missing indentation for block scalar");
      }
      if (state.lineIndent < textIndent) {
        if (chomping === CHOMPING_KEEP) {
          state.result += common2.repeat("\n", didReadContent ? 1 + emptyLines : emptyLines);
        } else if (chomping === CHOMPING_CLIP) {
          if (didReadContent) {
            state.result += "\n";
          }
        }
        break;
      }
      if (folding) {
        if (isWhiteSpace(ch)) {
          atMoreIndented = true;
          state.result += common2.repeat("\n", didReadContent ? 1 + emptyLines : emptyLines);
        } else if (atMoreIndented) {
          atMoreIndented = false;
          state.result += common2.repeat("\n", emptyLines + 1);
        } else if (emptyLines === 0) {
          if (didReadContent) {
            state.result += " ";
          }
        } else {
          state.result += common2.repeat("\n", emptyLines);
        }
      } else {
        state.result += common2.repeat("\n", didReadContent ? 1 + emptyLines : emptyLines);
      }
      didReadContent = true;
      detectedIndent = true;
      emptyLines = 0;
      const captureStart = state.position;
      while (!isEol(ch) && ch !== 0) {
        ch = state.input.charCodeAt(++state.position);
      }
      captureSegment(state, captureStart, state.position, false);
    }
    return true;
  }
  function readBlockSequence(state, nodeIndent) {
    const _tag = state.tag;
    const _anchor = state.anchor;
    const _result = [];
    let detected = false;
    if (state.firstTabInLine !== -1) return false;
    if (state.anchor !== null) {
      storeAnchor(state, state.anchor, _result);
    }
    let ch = state.input.charCodeAt(state.position);
    while (ch !== 0) {
      if (state.firstTabInLine !== -1) {
        state.position = state.firstTabInLine;
        throwError(state, "tab characters must not be used in indentation");
      }
      if (ch !== 45) {
        break;
      }
      const following = state.input.charCodeAt(state.position + 1);
      if (!isWsOrEol(following)) {
        break;
      }
      detected = true;
      state.position++;
      if (skipSeparationSpace(state, true, -1)) {
        if (state.lineIndent <= nodeIndent) {
          _result.push(null);
          ch = state.input.charCodeAt(state.position);
          continue;
        }
      }
      const _line = state.line;
      composeNode(state, nodeIndent, CONTEXT_BLOCK_IN, false, true);
      _result.push(state.result);
      skipSeparationSpace(state, true, -1);
      ch = state.input.charCodeAt(state.position);
      if ((state.line === _line || state.lineIndent > nodeIndent) && ch !== 0) {
        throwError(state, "bad indentation of a sequence entry");
      } else if (state.lineIndent < nodeIndent) {
        break;
      }
    }
    if (detected) {
      state.tag = _tag;
      state.anchor = _anchor;
      state.kind = "sequence";
      state.result = _result;
      return true;
    }
    return false;
  }
  function readBlockMapping(state, nodeIndent, flowIndent) {
    let allowCompact;
    let _keyLine;
    let _keyLineStart;
    let _keyPos;
    const _tag = state.tag;
    const _anchor = state.anchor;
    const _result = {};
    const overridableKeys = /* @__PURE__ */ Object.create(null);
    let keyTag = null;
    let keyNode = null;
    let valueNode = null;
    let atExplicitKey = false;
    let detected = false;
    if (state.firstTabInLine !== -1) return false;
    if (state.anchor !== null) {
      storeAnchor(state, state.anchor, _result);
    }
    let ch = state.input.charCodeAt(state.position);
    while (ch !== 0) {
      if (!atExplicitKey && state.firstTabInLine !== -1) {
        state.position = state.firstTabInLine;
        throwError(state, "tab characters must not be used in indentation");
      }
      const following = state.input.charCodeAt(state.position + 1);
      const _line = state.line;
      if ((ch === 63 || ch === 58) && isWsOrEol(following)) {
        if (ch === 63) {
          if (atExplicitKey) {
            storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, null, _keyLine, _keyLineStart, _keyPos);
            keyTag = keyNode = valueNode = null;
          }
          detected = true;
          atExplicitKey = true;
          allowCompact = true;
        } else if (atExplicitKey) {
          atExplicitKey = false;
          allowCompact = true;
        } else {
          throwError(state, "incomplete explicit mapping pair; a key node is missed; or followed by a non-tabulated empty line");
        }
        state.position += 1;
        ch = following;
      } else {
        _keyLine = state.line;
        _keyLineStart = state.lineStart;
        _keyPos = state.position;
        if (!composeNode(state, flowIndent, CONTEXT_FLOW_OUT, false, true)) {
          break;
        }
        if (state.line === _line) {
          ch = state.input.charCodeAt(state.position);
          while (isWhiteSpace(ch)) {
            ch = state.input.charCodeAt(++state.position);
          }
          if (ch === 58) {
            ch = state.input.charCodeAt(++state.position);
            if (!isWsOrEol(ch)) {
              throwError(state, "a whitespace character is expected after the key-value separator within a block mapping");
            }
            if (atExplicitKey) {
              storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, null, _keyLine, _keyLineStart, _keyPos);
              keyTag = keyNode = valueNode = null;
            }
            detected = true;
            atExplicitKey = false;
            allowCompact = false;
            keyTag = state.tag;
            keyNode = state.result;
          } else if (detected) {
            throwError(state, "can not read an implicit mapping pair; a colon is missed");
          } else {
            state.tag = _tag;
            state.anchor = _anchor;
            return true;
          }
        } else if (detected) {
          throwError(state, "can not read a block mapping entry; a multiline key may not be an implicit key");
        } else {
          state.tag = _tag;
          state.anchor = _anchor;
          return true;
        }
      }
      if (state.line === _line || state.lineIndent > nodeIndent) {
        if (atExplicitKey) {
          _keyLine = state.line;
          _keyLineStart = state.lineStart;
          _keyPos = state.position;
        }
        if (composeNode(state, nodeIndent, CONTEXT_BLOCK_OUT, true, allowCompact)) {
          if (atExplicitKey) {
            keyNode = state.result;
          } else {
            valueNode = state.result;
          }
        }
        if (!atExplicitKey) {
          storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, valueNode, _keyLine, _keyLineStart, _keyPos);
          keyTag = keyNode = valueNode = null;
        }
        skipSeparationSpace(state, true, -1);
        ch = state.input.charCodeAt(state.position);
      }
      if ((state.line === _line || state.lineIndent > nodeIndent) && ch !== 0) {
        throwError(state, "bad indentation of a mapping entry");
      } else if (state.lineIndent < nodeIndent) {
        break;
      }
    }
    if (atExplicitKey) {
      storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, null, _keyLine, _keyLineStart, _keyPos);
    }
    if (detected) {
      state.tag = _tag;
      state.anchor = _anchor;
      state.kind = "mapping";
      state.result = _result;
    }
    return detected;
  }
  function readTagProperty(state) {
    let isVerbatim = false;
    let isNamed = false;
    let tagHandle;
    let tagName;
    let ch = state.input.charCodeAt(state.position);
    if (ch !== 33) return false;
    if (state.tag !== null) {
      throwError(state, "duplication of a tag property");
    }
    ch = state.input.charCodeAt(++state.position);
    if (ch === 60) {
      isVerbatim = true;
      ch = state.input.charCodeAt(++state.position);
    } else if (ch === 33) {
      isNamed = true;
      tagHandle = "!!";
      ch = state.input.charCodeAt(++state.position);
    } else {
      tagHandle = "!";
    }
    let _position = state.position;
    if (isVerbatim) {
      do {
        ch = state.input.charCodeAt(++state.position);
      } while (ch !== 0 && ch !== 62);
      if (state.position < state.length) {
        tagName = state.input.slice(_position, state.position);
        ch = state.input.charCodeAt(++state.position);
      } else {
        throwError(state, "unexpected end of the stream within a verbatim tag");
      }
    } else {
      while (ch !== 0 && !isWsOrEol(ch)) {
        if (ch === 33) {
          if (!isNamed) {
            tagHandle = state.input.slice(_position - 1, state.position + 1);
            if (!PATTERN_TAG_HANDLE.test(tagHandle)) {
              throwError(state, "named tag handle cannot contain such characters");
            }
            isNamed = true;
            _position = state.position + 1;
          } else {
            throwError(state, "tag suffix cannot contain exclamation marks");
          }
        }
        ch = state.input.charCodeAt(++state.position);
      }
      tagName = state.input.slice(_position, state.position);
      if (PATTERN_FLOW_INDICATORS.test(tagName)) {
        throwError(state, "tag suffix cannot contain flow indicator characters");
      }
    }
    if (tagName && !PATTERN_TAG_URI.test(tagName)) {
      throwError(state, "tag name cannot contain such characters: " + tagName);
    }
    try {
      tagName = decodeURIComponent(tagName);
    } catch (err) {
      throwError(state, "tag name is malformed: " + tagName);
    }
    if (isVerbatim) {
      state.tag = tagName;
    } else if (_hasOwnProperty.call(state.tagMap, tagHandle)) {
      state.tag = state.tagMap[tagHandle] + tagName;
    } else if (tagHandle === "!") {
      state.tag = "!" + tagName;
    } else if (tagHandle === "!!") {
      state.tag = "tag:yaml.org,2002:" + tagName;
    } else {
      throwError(state, 'undeclared tag handle "' + tagHandle + '"');
    }
    return true;
  }
  function readAnchorProperty(state) {
    let ch = state.input.charCodeAt(state.position);
    if (ch !== 38) return false;
    if (state.anchor !== null) {
      throwError(state, "duplication of an anchor property");
    }
    ch = state.input.charCodeAt(++state.position);
    const _position = state.position;
    while (ch !== 0 && !isWsOrEol(ch) && !isFlowIndicator(ch)) {
      ch = state.input.charCodeAt(++state.position);
    }
    if (state.position === _position) {
      throwError(state, "name of an anchor node must contain at least one character");
    }
    state.anchor = state.input.slice(_position, state.position);
    return true;
  }
  function readAlias(state) {
    let ch = state.input.charCodeAt(state.position);
    if (ch !== 42) return false;
    ch = state.input.charCodeAt(++state.position);
    const _position = state.position;
    while (ch !== 0 && !isWsOrEol(ch) && !isFlowIndicator(ch)) {
      ch = state.input.charCodeAt(++state.position);
    }
    if (state.position === _position) {
      throwError(state, "name of an alias node must contain at least one character");
    }
    const alias = state.input.slice(_position, state.position);
    if (!_hasOwnProperty.call(state.anchorMap, alias)) {
      throwError(state, 'unidentified alias "' + alias + '"');
    }
    state.result = state.anchorMap[alias];
    skipSeparationSpace(state, true, -1);
    return true;
  }
  function tryReadBlockMappingFromProperty(state, propertyStart, nodeIndent, flowIndent) {
    const fallbackState = snapshotState(state);
    beginAnchorTransaction(state);
    restoreState(state, propertyStart);
    state.tag = null;
    state.anchor = null;
    state.kind = null;
    state.result = null;
    if (readBlockMapping(state, nodeIndent, flowIndent) && state.kind === "mapping") {
      commitAnchorTransaction(state);
      return true;
    }
    rollbackAnchorTransaction(state);
    restoreState(state, fallbackState);
    return false;
  }
  function composeNode(state, parentIndent, nodeContext, allowToSeek, allowCompact) {
    let allowBlockScalars;
    let allowBlockCollections;
    let indentStatus = 1;
    let atNewLine = false;
    let hasContent = false;
    let propertyStart = null;
    let type2;
    let flowIndent;
    let blockIndent;
    if (state.depth >= state.maxDepth) {
      throwError(state, "nesting exceeded maxDepth (" + state.maxDepth + ")");
    }
    state.depth += 1;
    if (state.listener !== null) {
      state.listener("open", state);
    }
    state.tag = null;
    state.anchor = null;
    state.kind = null;
    state.result = null;
    const allowBlockStyles = allowBlockScalars = allowBlockCollections = CONTEXT_BLOCK_OUT === nodeContext || CONTEXT_BLOCK_IN === nodeContext;
    if (allowToSeek) {
      if (skipSeparationSpace(state, true, -1)) {
        atNewLine = true;
        if (state.lineIndent > parentIndent) {
          indentStatus = 1;
        } else if (state.lineIndent === parentIndent) {
          indentStatus = 0;
        } else if (state.lineIndent < parentIndent) {
          indentStatus = -1;
        }
      }
    }
    if (indentStatus === 1) {
      while (true) {
        const ch = state.input.charCodeAt(state.position);
        const propertyState = snapshotState(state);
        if (atNewLine && (ch === 33 && state.tag !== null || ch === 38 && state.anchor !== null)) {
          break;
        }
        if (!readTagProperty(state) && !readAnchorProperty(state)) {
          break;
        }
        if (propertyStart === null) {
          propertyStart = propertyState;
        }
        if (skipSeparationSpace(state, true, -1)) {
          atNewLine = true;
          allowBlockCollections = allowBlockStyles;
          if (state.lineIndent > parentIndent) {
            indentStatus = 1;
          } else if (state.lineIndent === parentIndent) {
            indentStatus = 0;
          } else if (state.lineIndent < parentIndent) {
            indentStatus = -1;
          }
        } else {
          allowBlockCollections = false;
        }
      }
    }
    if (allowBlockCollections) {
      allowBlockCollections = atNewLine || allowCompact;
    }
    if (indentStatus === 1 || CONTEXT_BLOCK_OUT === nodeContext) {
      if (CONTEXT_FLOW_IN === nodeContext || CONTEXT_FLOW_OUT === nodeContext) {
        flowIndent = parentIndent;
      } else {
        flowIndent = parentIndent + 1;
      }
      blockIndent = state.position - state.lineStart;
      if (indentStatus === 1) {
        if (allowBlockCollections && (readBlockSequence(state, blockIndent) || readBlockMapping(state, blockIndent, flowIndent)) || readFlowCollection(state, flowIndent)) {
          hasContent = true;
        } else {
          const ch = state.input.charCodeAt(state.position);
          if (propertyStart !== null && allowBlockStyles && !allowBlockCollections && ch !== 124 && ch !== 62 && tryReadBlockMappingFromProperty(
            state,
            propertyStart,
            propertyStart.position - propertyStart.lineStart,
            flowIndent
          )) {
            hasContent = true;
          } else if (allowBlockScalars && readBlockScalar(state, flowIndent) || readSingleQuotedScalar(state, flowIndent) || readDoubleQuotedScalar(state, flowIndent)) {
            hasContent = true;
          } else if (readAlias(state)) {
            hasContent = true;
            if (state.tag !== null || state.anchor !== null) {
              throwError(state, "alias node should not have any properties");
            }
          } else if (readPlainScalar(state, flowIndent, CONTEXT_FLOW_IN === nodeContext)) {
            hasContent = true;
            if (state.tag === null) {
              state.tag = "?";
            }
          }
          if (state.anchor !== null) {
            storeAnchor(state, state.anchor, state.result);
          }
        }
      } else if (indentStatus === 0) {
        hasContent = allowBlockCollections && readBlockSequence(state, blockIndent);
      }
    }
    if (state.tag === null) {
      if (state.anchor !== null) {
        storeAnchor(state, state.anchor, state.result);
      }
    } else if (state.tag === "?") {
      if (state.result !== null && state.kind !== "scalar") {
        throwError(state, 'unacceptable node kind for !<?> tag; it should be "scalar", not "' + state.kind + '"');
      }
      for (let typeIndex = 0, typeQuantity = state.implicitTypes.length; typeIndex < typeQuantity; typeIndex += 1) {
        type2 = state.implicitTypes[typeIndex];
        if (type2.resolve(state.result)) {
          state.result = type2.construct(state.result);
          state.tag = type2.tag;
          if (state.anchor !== null) {
            storeAnchor(state, state.anchor, state.result);
          }
          break;
        }
      }
    } else if (state.tag !== "!") {
      if (_hasOwnProperty.call(state.typeMap[state.kind || "fallback"], state.tag)) {
        type2 = state.typeMap[state.kind || "fallback"][state.tag];
      } else {
        type2 = null;
        const typeList = state.typeMap.multi[state.kind || "fallback"];
        for (let typeIndex = 0, typeQuantity = typeList.length; typeIndex < typeQuantity; typeIndex += 1) {
          if (state.tag.slice(0, typeList[typeIndex].tag.length) === typeList[typeIndex].tag) {
            type2 = typeList[typeIndex];
            break;
          }
        }
      }
      if (!type2) {
        throwError(state, "unknown tag !<" + state.tag + ">");
      }
      if (state.result !== null && type2.kind !== state.kind) {
        throwError(state, "unacceptable node kind for !<" + state.tag + '> tag; it should be "' + type2.kind + '", not "' + state.kind + '"');
      }
      if (!type2.resolve(state.result, state.tag)) {
        throwError(state, "cannot resolve a node with !<" + state.tag + "> explicit tag");
      } else {
        state.result = type2.construct(state.result, state.tag);
        if (state.anchor !== null) {
          storeAnchor(state, state.anchor, state.result);
        }
      }
    }
    if (state.listener !== null) {
      state.listener("close", state);
    }
    state.depth -= 1;
    return state.tag !== null || state.anchor !== null || hasContent;
  }
  function readDocument(state) {
    const documentStart = state.position;
    let hasDirectives = false;
    let ch;
    state.version = null;
    state.checkLineBreaks = state.legacy;
    state.tagMap = /* @__PURE__ */ Object.create(null);
    state.anchorMap = /* @__PURE__ */ Object.create(null);
    while ((ch = state.input.charCodeAt(state.position)) !== 0) {
      skipSeparationSpace(state, true, -1);
      ch = state.input.charCodeAt(state.position);
      if (state.lineIndent > 0 || ch !== 37) {
        break;
      }
      hasDirectives = true;
      ch = state.input.charCodeAt(++state.position);
      let _position = state.position;
      while (ch !== 0 && !isWsOrEol(ch)) {
        ch = state.input.charCodeAt(++state.position);
      }
      const directiveName = state.input.slice(_position, state.position);
      const directiveArgs = [];
      if (directiveName.length < 1) {
        throwError(state, "directive name must not be less than one character in length");
      }
      while (ch !== 0) {
        while (isWhiteSpace(ch)) {
          ch = state.input.charCodeAt(++state.position);
        }
        if (ch === 35) {
          do {
            ch = state.input.charCodeAt(++state.position);
          } while (ch !== 0 && !isEol(ch));
          break;
        }
        if (isEol(ch)) break;
        _position = state.position;
        while (ch !== 0 && !isWsOrEol(ch)) {
          ch = state.input.charCodeAt(++state.position);
        }
        directiveArgs.push(state.input.slice(_position, state.position));
      }
      if (ch !== 0) readLineBreak(state);
      if (_hasOwnProperty.call(directiveHandlers, directiveName)) {
        directiveHandlers[directiveName](state, directiveName, directiveArgs);
      } else {
        throwWarning(state, 'unknown document directive "' + directiveName + '"');
      }
    }
    skipSeparationSpace(state, true, -1);
    if (state.lineIndent === 0 && state.input.charCodeAt(state.position) === 45 && state.input.charCodeAt(state.position + 1) === 45 && state.input.charCodeAt(state.position + 2) === 45) {
      state.position += 3;
      skipSeparationSpace(state, true, -1);
    } else if (hasDirectives) {
      throwError(state, "directives end mark is expected");
    }
    composeNode(state, state.lineIndent - 1, CONTEXT_BLOCK_OUT, false, true);
    skipSeparationSpace(state, true, -1);
    if (state.checkLineBreaks && PATTERN_NON_ASCII_LINE_BREAKS.test(state.input.slice(documentStart, state.position))) {
      throwWarning(state, "non-ASCII line breaks are interpreted as content");
    }
    state.documents.push(state.result);
    if (state.position === state.lineStart && testDocumentSeparator(state)) {
      if (state.input.charCodeAt(state.position) === 46) {
        state.position += 3;
        skipSeparationSpace(state, true, -1);
      }
      return;
    }
    if (state.position < state.length - 1) {
      throwError(state, "end of the stream or a document separator is expected");
    }
  }
  function loadDocuments(input, options) {
    input = String(input);
    options = options || {};
    if (input.length !== 0) {
      if (input.charCodeAt(input.length - 1) !== 10 && input.charCodeAt(input.length - 1) !== 13) {
        input += "\n";
      }
      if (input.charCodeAt(0) === 65279) {
        input = input.slice(1);
      }
    }
    const state = new State(input, options);
    const nullpos = input.indexOf("\0");
    if (nullpos !== -1) {
      state.position = nullpos;
      throwError(state, "null byte is not allowed in input");
    }
    state.input += "\0";
    while (state.input.charCodeAt(state.position) === 32) {
      state.lineIndent += 1;
      state.position += 1;
    }
    while (state.position < state.length - 1) {
      readDocument(state);
    }
    return state.documents;
  }
  function loadAll2(input, iterator, options) {
    if (iterator !== null && typeof iterator === "object" && typeof options === "undefined") {
      options = iterator;
      iterator = null;
    }
    const documents = loadDocuments(input, options);
    if (typeof iterator !== "function") {
      return documents;
    }
    for (let index = 0, length = documents.length; index < length; index += 1) {
      iterator(documents[index]);
    }
  }
  function load2(input, options) {
    const documents = loadDocuments(input, options);
    if (documents.length === 0) {
      return void 0;
    } else if (documents.length === 1) {
      return documents[0];
    }
    throw new YAMLException2("expected a single document in the stream, but found more");
  }
  loader.loadAll = loadAll2;
  loader.load = load2;
  return loader;
}
var dumper = {};
var hasRequiredDumper;
function requireDumper() {
  if (hasRequiredDumper) return dumper;
  hasRequiredDumper = 1;
  const common2 = requireCommon();
  const YAMLException2 = requireException();
  const DEFAULT_SCHEMA2 = require_default();
  const _toString = Object.prototype.toString;
  const _hasOwnProperty = Object.prototype.hasOwnProperty;
  const CHAR_BOM = 65279;
  const CHAR_TAB = 9;
  const CHAR_LINE_FEED = 10;
  const CHAR_CARRIAGE_RETURN = 13;
  const CHAR_SPACE = 32;
  const CHAR_EXCLAMATION = 33;
  const CHAR_DOUBLE_QUOTE = 34;
  const CHAR_SHARP = 35;
  const CHAR_PERCENT = 37;
  const CHAR_AMPERSAND = 38;
  const CHAR_SINGLE_QUOTE = 39;
  const CHAR_ASTERISK = 42;
  const CHAR_COMMA = 44;
  const CHAR_MINUS = 45;
  const CHAR_COLON = 58;
  const CHAR_EQUALS = 61;
  const CHAR_GREATER_THAN = 62;
  const CHAR_QUESTION = 63;
  const CHAR_COMMERCIAL_AT = 64;
  const CHAR_LEFT_SQUARE_BRACKET = 91;
  const CHAR_RIGHT_SQUARE_BRACKET = 93;
  const CHAR_GRAVE_ACCENT = 96;
  const CHAR_LEFT_CURLY_BRACKET = 123;
  const CHAR_VERTICAL_LINE = 124;
  const CHAR_RIGHT_CURLY_BRACKET = 125;
  const ESCAPE_SEQUENCES = {};
  ESCAPE_SEQUENCES[0] = "\\0";
  ESCAPE_SEQUENCES[7] = "\\a";
  ESCAPE_SEQUENCES[8] = "\\b";
  ESCAPE_SEQUENCES[9] = "\\t";
  ESCAPE_SEQUENCES[10] = "\\n";
  ESCAPE_SEQUENCES[11] = "\\v";
  ESCAPE_SEQUENCES[12] = "\\f";
  ESCAPE_SEQUENCES[13] = "\\r";
  ESCAPE_SEQUENCES[27] = "\\e";
  ESCAPE_SEQUENCES[34] = '\\"';
  ESCAPE_SEQUENCES[92] = "\\\\";
  ESCAPE_SEQUENCES[133] = "\\N";
  ESCAPE_SEQUENCES[160] = "\\_";
  ESCAPE_SEQUENCES[8232] = "\\L";
  ESCAPE_SEQUENCES[8233] = "\\P";
  const DEPRECATED_BOOLEANS_SYNTAX = [
    "y",
    "Y",
    "yes",
    "Yes",
    "YES",
    "on",
    "On",
    "ON",
    "n",
    "N",
    "no",
    "No",
    "NO",
    "off",
    "Off",
    "OFF"
  ];
  const DEPRECATED_BASE60_SYNTAX = /^[-+]?[0-9_]+(?::[0-9_]+)+(?:\.[0-9_]*)?$/;
  function compileStyleMap(schema2, map2) {
    if (map2 === null) return {};
    const result = {};
    const keys = Object.keys(map2);
    for (let index = 0, length = keys.length; index < length; index += 1) {
      let tag = keys[index];
      let style = String(map2[tag]);
      if (tag.slice(0, 2) === "!!") {
        tag = "tag:yaml.org,2002:" + tag.slice(2);
      }
      const type2 = schema2.compiledTypeMap["fallback"][tag];
      if (type2 && _hasOwnProperty.call(type2.styleAliases, style)) {
        style = type2.styleAliases[style];
      }
      result[tag] = style;
    }
    return result;
  }
  function encodeHex(character) {
    let handle;
    let length;
    const string = character.toString(16).toUpperCase();
    if (character <= 255) {
      handle = "x";
      length = 2;
    } else if (character <= 65535) {
      handle = "u";
      length = 4;
    } else if (character <= 4294967295) {
      handle = "U";
      length = 8;
    } else {
      throw new YAMLException2("code point within a string may not be greater than 0xFFFFFFFF");
    }
    return "\\" + handle + common2.repeat("0", length - string.length) + string;
  }
  const QUOTING_TYPE_SINGLE = 1;
  const QUOTING_TYPE_DOUBLE = 2;
  function State(options) {
    this.schema = options["schema"] || DEFAULT_SCHEMA2;
    this.indent = Math.max(1, options["indent"] || 2);
    this.noArrayIndent = options["noArrayIndent"] || false;
    this.skipInvalid = options["skipInvalid"] || false;
    this.flowLevel = common2.isNothing(options["flowLevel"]) ? -1 : options["flowLevel"];
    this.styleMap = compileStyleMap(this.schema, options["styles"] || null);
    this.sortKeys = options["sortKeys"] || false;
    this.lineWidth = options["lineWidth"] || 80;
    this.noRefs = options["noRefs"] || false;
    this.noCompatMode = options["noCompatMode"] || false;
    this.condenseFlow = options["condenseFlow"] || false;
    this.quotingType = options["quotingType"] === '"' ? QUOTING_TYPE_DOUBLE : QUOTING_TYPE_SINGLE;
    this.forceQuotes = options["forceQuotes"] || false;
    this.replacer = typeof options["replacer"] === "function" ? options["replacer"] : null;
    this.implicitTypes = this.schema.compiledImplicit;
    this.explicitTypes = this.schema.compiledExplicit;
    this.tag = null;
    this.result = "";
    this.duplicates = [];
    this.usedDuplicates = null;
  }
  function indentString(string, spaces) {
    const ind = common2.repeat(" ", spaces);
    let position = 0;
    let result = "";
    const length = string.length;
    while (position < length) {
      let line;
      const next = string.indexOf("\n", position);
      if (next === -1) {
        line = string.slice(position);
        position = length;
      } else {
        line = string.slice(position, next + 1);
        position = next + 1;
      }
      if (line.length && line !== "\n") result += ind;
      result += line;
    }
    return result;
  }
  function generateNextLine(state, level) {
    return "\n" + common2.repeat(" ", state.indent * level);
  }
  function testImplicitResolving(state, str2) {
    for (let index = 0, length = state.implicitTypes.length; index < length; index += 1) {
      const type2 = state.implicitTypes[index];
      if (type2.resolve(str2)) {
        return true;
      }
    }
    return false;
  }
  function isWhitespace(c) {
    return c === CHAR_SPACE || c === CHAR_TAB;
  }
  function isPrintable(c) {
    return c >= 32 && c <= 126 || c >= 161 && c <= 55295 && c !== 8232 && c !== 8233 || c >= 57344 && c <= 65533 && c !== CHAR_BOM || c >= 65536 && c <= 1114111;
  }
  function isNsCharOrWhitespace(c) {
    return isPrintable(c) && c !== CHAR_BOM && // - b-char
    c !== CHAR_CARRIAGE_RETURN && c !== CHAR_LINE_FEED;
  }
  function isPlainSafe(c, prev, inblock) {
    const cIsNsCharOrWhitespace = isNsCharOrWhitespace(c);
    const cIsNsChar = cIsNsCharOrWhitespace && !isWhitespace(c);
    return (
      // ns-plain-safe
      (inblock ? cIsNsCharOrWhitespace : cIsNsCharOrWhitespace && // - c-flow-indicator
      c !== CHAR_COMMA && c !== CHAR_LEFT_SQUARE_BRACKET && c !== CHAR_RIGHT_SQUARE_BRACKET && c !== CHAR_LEFT_CURLY_BRACKET && c !== CHAR_RIGHT_CURLY_BRACKET) && // ns-plain-char
      c !== CHAR_SHARP && // false on '#'
      !(prev === CHAR_COLON && !cIsNsChar) || // false on ': '
      isNsCharOrWhitespace(prev) && !isWhitespace(prev) && c === CHAR_SHARP || // change to true on '[^ ]#'
      prev === CHAR_COLON && cIsNsChar
    );
  }
  function isPlainSafeFirst(c) {
    return isPrintable(c) && c !== CHAR_BOM && !isWhitespace(c) && // - s-white
    // - (c-indicator ::=
    // “-” | “?” | “:” | “,” | “[” | “]” | “{” | “}”
    c !== CHAR_MINUS && c !== CHAR_QUESTION && c !== CHAR_COLON && c !== CHAR_COMMA && c !== CHAR_LEFT_SQUARE_BRACKET && c !== CHAR_RIGHT_SQUARE_BRACKET && c !== CHAR_LEFT_CURLY_BRACKET && c !== CHAR_RIGHT_CURLY_BRACKET && // | “#” | “&” | “*” | “!” | “|” | “=” | “>” | “'” | “"”
    c !== CHAR_SHARP && c !== CHAR_AMPERSAND && c !== CHAR_ASTERISK && c !== CHAR_EXCLAMATION && c !== CHAR_VERTICAL_LINE && c !== CHAR_EQUALS && c !== CHAR_GREATER_THAN && c !== CHAR_SINGLE_QUOTE && c !== CHAR_DOUBLE_QUOTE && // | “%” | “@” | “`”)
    c !== CHAR_PERCENT && c !== CHAR_COMMERCIAL_AT && c !== CHAR_GRAVE_ACCENT;
  }
  function isPlainSafeLast(c) {
    return !isWhitespace(c) && c !== CHAR_COLON;
  }
  function codePointAt(string, pos) {
    const first = string.charCodeAt(pos);
    let second;
    if (first >= 55296 && first <= 56319 && pos + 1 < string.length) {
      second = string.charCodeAt(pos + 1);
      if (second >= 56320 && second <= 57343) {
        return (first - 55296) * 1024 + second - 56320 + 65536;
      }
    }
    return first;
  }
  function needIndentIndicator(string) {
    const leadingSpaceRe = /^\n* /;
    return leadingSpaceRe.test(string);
  }
  const STYLE_PLAIN = 1;
  const STYLE_SINGLE = 2;
  const STYLE_LITERAL = 3;
  const STYLE_FOLDED = 4;
  const STYLE_DOUBLE = 5;
  function chooseScalarStyle(string, singleLineOnly, indentPerLevel, lineWidth, testAmbiguousType, quotingType, forceQuotes, inblock) {
    let i;
    let char = 0;
    let prevChar = null;
    let hasLineBreak = false;
    let hasFoldableLine = false;
    const shouldTrackWidth = lineWidth !== -1;
    let previousLineBreak = -1;
    let plain = isPlainSafeFirst(codePointAt(string, 0)) && isPlainSafeLast(codePointAt(string, string.length - 1));
    if (singleLineOnly || forceQuotes) {
      for (i = 0; i < string.length; char >= 65536 ? i += 2 : i++) {
        char = codePointAt(string, i);
        if (!isPrintable(char)) {
          return STYLE_DOUBLE;
        }
        plain = plain && isPlainSafe(char, prevChar, inblock);
        prevChar = char;
      }
    } else {
      for (i = 0; i < string.length; char >= 65536 ? i += 2 : i++) {
        char = codePointAt(string, i);
        if (char === CHAR_LINE_FEED) {
          hasLineBreak = true;
          if (shouldTrackWidth) {
            hasFoldableLine = hasFoldableLine || // Foldable line = too long, and not more-indented.
            i - previousLineBreak - 1 > lineWidth && string[previousLineBreak + 1] !== " ";
            previousLineBreak = i;
          }
        } else if (!isPrintable(char)) {
          return STYLE_DOUBLE;
        }
        plain = plain && isPlainSafe(char, prevChar, inblock);
        prevChar = char;
      }
      hasFoldableLine = hasFoldableLine || shouldTrackWidth && (i - previousLineBreak - 1 > lineWidth && string[previousLineBreak + 1] !== " ");
    }
    if (!hasLineBreak && !hasFoldableLine) {
      if (plain && !forceQuotes && !testAmbiguousType(string)) {
        return STYLE_PLAIN;
      }
      return quotingType === QUOTING_TYPE_DOUBLE ? STYLE_DOUBLE : STYLE_SINGLE;
    }
    if (indentPerLevel > 9 && needIndentIndicator(string)) {
      return STYLE_DOUBLE;
    }
    if (!forceQuotes) {
      return hasFoldableLine ? STYLE_FOLDED : STYLE_LITERAL;
    }
    return quotingType === QUOTING_TYPE_DOUBLE ? STYLE_DOUBLE : STYLE_SINGLE;
  }
  function writeScalar(state, string, level, iskey, inblock) {
    state.dump = (function() {
      if (string.length === 0) {
        return state.quotingType === QUOTING_TYPE_DOUBLE ? '""' : "''";
      }
      if (!state.noCompatMode) {
        if (DEPRECATED_BOOLEANS_SYNTAX.indexOf(string) !== -1 || DEPRECATED_BASE60_SYNTAX.test(string)) {
          return state.quotingType === QUOTING_TYPE_DOUBLE ? '"' + string + '"' : "'" + string + "'";
        }
      }
      const indent = state.indent * Math.max(1, level);
      const lineWidth = state.lineWidth === -1 ? -1 : Math.max(Math.min(state.lineWidth, 40), state.lineWidth - indent);
      const singleLineOnly = iskey || // No block styles in flow mode.
      state.flowLevel > -1 && level >= state.flowLevel;
      function testAmbiguity(string2) {
        return testImplicitResolving(state, string2);
      }
      switch (chooseScalarStyle(
        string,
        singleLineOnly,
        state.indent,
        lineWidth,
        testAmbiguity,
        state.quotingType,
        state.forceQuotes && !iskey,
        inblock
      )) {
        case STYLE_PLAIN:
          return string;
        case STYLE_SINGLE:
          return "'" + string.replace(/'/g, "''") + "'";
        case STYLE_LITERAL:
          return "|" + blockHeader(string, state.indent) + dropEndingNewline(indentString(string, indent));
        case STYLE_FOLDED:
          return ">" + blockHeader(string, state.indent) + dropEndingNewline(indentString(foldString(string, lineWidth), indent));
        case STYLE_DOUBLE:
          return '"' + escapeString(string) + '"';
        default:
          throw new YAMLException2("impossible error: invalid scalar style");
      }
    })();
  }
  function blockHeader(string, indentPerLevel) {
    const indentIndicator = needIndentIndicator(string) ? String(indentPerLevel) : "";
    const clip = string[string.length - 1] === "\n";
    const keep = clip && (string[string.length - 2] === "\n" || string === "\n");
    const chomp = keep ? "+" : clip ? "" : "-";
    return indentIndicator + chomp + "\n";
  }
  function dropEndingNewline(string) {
    return string[string.length - 1] === "\n" ? string.slice(0, -1) : string;
  }
  function foldString(string, width) {
    const lineRe = /(\n+)([^\n]*)/g;
    let result = (function() {
      let nextLF = string.indexOf("\n");
      nextLF = nextLF !== -1 ? nextLF : string.length;
      lineRe.lastIndex = nextLF;
      return foldLine(string.slice(0, nextLF), width);
    })();
    let prevMoreIndented = string[0] === "\n" || string[0] === " ";
    let moreIndented;
    let match;
    while (match = lineRe.exec(string)) {
      const prefix = match[1];
      const line = match[2];
      moreIndented = line[0] === " ";
      result += prefix + (!prevMoreIndented && !moreIndented && line !== "" ? "\n" : "") + foldLine(line, width);
      prevMoreIndented = moreIndented;
    }
    return result;
  }
  function foldLine(line, width) {
    if (line === "" || line[0] === " ") return line;
    const breakRe = / [^ ]/g;
    let match;
    let start = 0;
    let end;
    let curr = 0;
    let next = 0;
    let result = "";
    while (match = breakRe.exec(line)) {
      next = match.index;
      if (next - start > width) {
        end = curr > start ? curr : next;
        result += "\n" + line.slice(start, end);
        start = end + 1;
      }
      curr = next;
    }
    result += "\n";
    if (line.length - start > width && curr > start) {
      result += line.slice(start, curr) + "\n" + line.slice(curr + 1);
    } else {
      result += line.slice(start);
    }
    return result.slice(1);
  }
  function escapeString(string) {
    let result = "";
    let char = 0;
    for (let i = 0; i < string.length; char >= 65536 ? i += 2 : i++) {
      char = codePointAt(string, i);
      const escapeSeq = ESCAPE_SEQUENCES[char];
      if (!escapeSeq && isPrintable(char)) {
        result += string[i];
        if (char >= 65536) result += string[i + 1];
      } else {
        result += escapeSeq || encodeHex(char);
      }
    }
    return result;
  }
  function writeFlowSequence(state, level, object) {
    let _result = "";
    const _tag = state.tag;
    for (let index = 0, length = object.length; index < length; index += 1) {
      let value = object[index];
      if (state.replacer) {
        value = state.replacer.call(object, String(index), value);
      }
      if (writeNode(state, level, value, false, false) || typeof value === "undefined" && writeNode(state, level, null, false, false)) {
        if (_result !== "") _result += "," + (!state.condenseFlow ? " " : "");
        _result += state.dump;
      }
    }
    state.tag = _tag;
    state.dump = "[" + _result + "]";
  }
  function writeBlockSequence(state, level, object, compact) {
    let _result = "";
    const _tag = state.tag;
    for (let index = 0, length = object.length; index < length; index += 1) {
      let value = object[index];
      if (state.replacer) {
        value = state.replacer.call(object, String(index), value);
      }
      if (writeNode(state, level + 1, value, true, true, false, true) || typeof value === "undefined" && writeNode(state, level + 1, null, true, true, false, true)) {
        if (!compact || _result !== "") {
          _result += generateNextLine(state, level);
        }
        if (state.dump && CHAR_LINE_FEED === state.dump.charCodeAt(0)) {
          _result += "-";
        } else {
          _result += "- ";
        }
        _result += state.dump;
      }
    }
    state.tag = _tag;
    state.dump = _result || "[]";
  }
  function writeFlowMapping(state, level, object) {
    let _result = "";
    const _tag = state.tag;
    const objectKeyList = Object.keys(object);
    for (let index = 0, length = objectKeyList.length; index < length; index += 1) {
      let pairBuffer = "";
      if (_result !== "") pairBuffer += ", ";
      if (state.condenseFlow) pairBuffer += '"';
      const objectKey = objectKeyList[index];
      let objectValue = object[objectKey];
      if (state.replacer) {
        objectValue = state.replacer.call(object, objectKey, objectValue);
      }
      if (!writeNode(state, level, objectKey, false, false)) {
        continue;
      }
      if (state.dump.length > 1024) pairBuffer += "? ";
      pairBuffer += state.dump + (state.condenseFlow ? '"' : "") + ":" + (state.condenseFlow ? "" : " ");
      if (!writeNode(state, level, objectValue, false, false)) {
        continue;
      }
      pairBuffer += state.dump;
      _result += pairBuffer;
    }
    state.tag = _tag;
    state.dump = "{" + _result + "}";
  }
  function writeBlockMapping(state, level, object, compact) {
    let _result = "";
    const _tag = state.tag;
    const objectKeyList = Object.keys(object);
    if (state.sortKeys === true) {
      objectKeyList.sort();
    } else if (typeof state.sortKeys === "function") {
      objectKeyList.sort(state.sortKeys);
    } else if (state.sortKeys) {
      throw new YAMLException2("sortKeys must be a boolean or a function");
    }
    for (let index = 0, length = objectKeyList.length; index < length; index += 1) {
      let pairBuffer = "";
      if (!compact || _result !== "") {
        pairBuffer += generateNextLine(state, level);
      }
      const objectKey = objectKeyList[index];
      let objectValue = object[objectKey];
      if (state.replacer) {
        objectValue = state.replacer.call(object, objectKey, objectValue);
      }
      if (!writeNode(state, level + 1, objectKey, true, true, true)) {
        continue;
      }
      const explicitPair = state.tag !== null && state.tag !== "?" || state.dump && state.dump.length > 1024;
      if (explicitPair) {
        if (state.dump && CHAR_LINE_FEED === state.dump.charCodeAt(0)) {
          pairBuffer += "?";
        } else {
          pairBuffer += "? ";
        }
      }
      pairBuffer += state.dump;
      if (explicitPair) {
        pairBuffer += generateNextLine(state, level);
      }
      if (!writeNode(state, level + 1, objectValue, true, explicitPair)) {
        continue;
      }
      if (state.dump && CHAR_LINE_FEED === state.dump.charCodeAt(0)) {
        pairBuffer += ":";
      } else {
        pairBuffer += ": ";
      }
      pairBuffer += state.dump;
      _result += pairBuffer;
    }
    state.tag = _tag;
    state.dump = _result || "{}";
  }
  function detectType(state, object, explicit) {
    const typeList = explicit ? state.explicitTypes : state.implicitTypes;
    for (let index = 0, length = typeList.length; index < length; index += 1) {
      const type2 = typeList[index];
      if ((type2.instanceOf || type2.predicate) && (!type2.instanceOf || typeof object === "object" && object instanceof type2.instanceOf) && (!type2.predicate || type2.predicate(object))) {
        if (explicit) {
          if (type2.multi && type2.representName) {
            state.tag = type2.representName(object);
          } else {
            state.tag = type2.tag;
          }
        } else {
          state.tag = "?";
        }
        if (type2.represent) {
          const style = state.styleMap[type2.tag] || type2.defaultStyle;
          let _result;
          if (_toString.call(type2.represent) === "[object Function]") {
            _result = type2.represent(object, style);
          } else if (_hasOwnProperty.call(type2.represent, style)) {
            _result = type2.represent[style](object, style);
          } else {
            throw new YAMLException2("!<" + type2.tag + '> tag resolver accepts not "' + style + '" style');
          }
          state.dump = _result;
        }
        return true;
      }
    }
    return false;
  }
  function writeNode(state, level, object, block, compact, iskey, isblockseq) {
    state.tag = null;
    state.dump = object;
    if (!detectType(state, object, false)) {
      detectType(state, object, true);
    }
    const type2 = _toString.call(state.dump);
    const inblock = block;
    if (block) {
      block = state.flowLevel < 0 || state.flowLevel > level;
    }
    const objectOrArray = type2 === "[object Object]" || type2 === "[object Array]";
    let duplicateIndex;
    let duplicate;
    if (objectOrArray) {
      duplicateIndex = state.duplicates.indexOf(object);
      duplicate = duplicateIndex !== -1;
    }
    if (state.tag !== null && state.tag !== "?" || duplicate || state.indent !== 2 && level > 0) {
      compact = false;
    }
    if (duplicate && state.usedDuplicates[duplicateIndex]) {
      state.dump = "*ref_" + duplicateIndex;
    } else {
      if (objectOrArray && duplicate && !state.usedDuplicates[duplicateIndex]) {
        state.usedDuplicates[duplicateIndex] = true;
      }
      if (type2 === "[object Object]") {
        if (block && Object.keys(state.dump).length !== 0) {
          writeBlockMapping(state, level, state.dump, compact);
          if (duplicate) {
            state.dump = "&ref_" + duplicateIndex + state.dump;
          }
        } else {
          writeFlowMapping(state, level, state.dump);
          if (duplicate) {
            state.dump = "&ref_" + duplicateIndex + " " + state.dump;
          }
        }
      } else if (type2 === "[object Array]") {
        if (block && state.dump.length !== 0) {
          if (state.noArrayIndent && !isblockseq && level > 0) {
            writeBlockSequence(state, level - 1, state.dump, compact);
          } else {
            writeBlockSequence(state, level, state.dump, compact);
          }
          if (duplicate) {
            state.dump = "&ref_" + duplicateIndex + state.dump;
          }
        } else {
          writeFlowSequence(state, level, state.dump);
          if (duplicate) {
            state.dump = "&ref_" + duplicateIndex + " " + state.dump;
          }
        }
      } else if (type2 === "[object String]") {
        if (state.tag !== "?") {
          writeScalar(state, state.dump, level, iskey, inblock);
        }
      } else if (type2 === "[object Undefined]") {
        return false;
      } else {
        if (state.skipInvalid) return false;
        throw new YAMLException2("unacceptable kind of an object to dump " + type2);
      }
      if (state.tag !== null && state.tag !== "?") {
        let tagStr = encodeURI(
          state.tag[0] === "!" ? state.tag.slice(1) : state.tag
        ).replace(/!/g, "%21");
        if (state.tag[0] === "!") {
          tagStr = "!" + tagStr;
        } else if (tagStr.slice(0, 18) === "tag:yaml.org,2002:") {
          tagStr = "!!" + tagStr.slice(18);
        } else {
          tagStr = "!<" + tagStr + ">";
        }
        state.dump = tagStr + " " + state.dump;
      }
    }
    return true;
  }
  function getDuplicateReferences(object, state) {
    const objects = [];
    const duplicatesIndexes = [];
    inspectNode(object, objects, duplicatesIndexes);
    const length = duplicatesIndexes.length;
    for (let index = 0; index < length; index += 1) {
      state.duplicates.push(objects[duplicatesIndexes[index]]);
    }
    state.usedDuplicates = new Array(length);
  }
  function inspectNode(object, objects, duplicatesIndexes) {
    if (object !== null && typeof object === "object") {
      const index = objects.indexOf(object);
      if (index !== -1) {
        if (duplicatesIndexes.indexOf(index) === -1) {
          duplicatesIndexes.push(index);
        }
      } else {
        objects.push(object);
        if (Array.isArray(object)) {
          for (let i = 0, length = object.length; i < length; i += 1) {
            inspectNode(object[i], objects, duplicatesIndexes);
          }
        } else {
          const objectKeyList = Object.keys(object);
          for (let i = 0, length = objectKeyList.length; i < length; i += 1) {
            inspectNode(object[objectKeyList[i]], objects, duplicatesIndexes);
          }
        }
      }
    }
  }
  function dump2(input, options) {
    options = options || {};
    const state = new State(options);
    if (!state.noRefs) getDuplicateReferences(input, state);
    let value = input;
    if (state.replacer) {
      value = state.replacer.call({ "": value }, "", value);
    }
    if (writeNode(state, 0, value, true, true)) return state.dump + "\n";
    return "";
  }
  dumper.dump = dump2;
  return dumper;
}
var hasRequiredJsYaml;
function requireJsYaml() {
  if (hasRequiredJsYaml) return jsYaml;
  hasRequiredJsYaml = 1;
  const loader2 = requireLoader();
  const dumper2 = requireDumper();
  function renamed(from, to) {
    return function() {
      throw new Error("Function yaml." + from + " is removed in js-yaml 4. Use yaml." + to + " instead, which is now safe by default.");
    };
  }
  jsYaml.Type = requireType();
  jsYaml.Schema = requireSchema();
  jsYaml.FAILSAFE_SCHEMA = requireFailsafe();
  jsYaml.JSON_SCHEMA = requireJson();
  jsYaml.CORE_SCHEMA = requireCore();
  jsYaml.DEFAULT_SCHEMA = require_default();
  jsYaml.load = loader2.load;
  jsYaml.loadAll = loader2.loadAll;
  jsYaml.dump = dumper2.dump;
  jsYaml.YAMLException = requireException();
  jsYaml.types = {
    binary: requireBinary(),
    float: requireFloat(),
    map: requireMap(),
    null: require_null(),
    pairs: requirePairs(),
    set: requireSet(),
    timestamp: requireTimestamp(),
    bool: requireBool(),
    int: requireInt(),
    merge: requireMerge(),
    omap: requireOmap(),
    seq: requireSeq(),
    str: requireStr()
  };
  jsYaml.safeLoad = renamed("safeLoad", "load");
  jsYaml.safeLoadAll = renamed("safeLoadAll", "loadAll");
  jsYaml.safeDump = renamed("safeDump", "dump");
  return jsYaml;
}
var jsYamlExports = requireJsYaml();
var yaml = /* @__PURE__ */ getDefaultExportFromCjs(jsYamlExports);
var {
  Type,
  Schema,
  FAILSAFE_SCHEMA,
  JSON_SCHEMA,
  CORE_SCHEMA,
  DEFAULT_SCHEMA,
  load,
  loadAll,
  dump,
  YAMLException,
  types,
  safeLoad,
  safeLoadAll,
  safeDump
} = yaml;

// lib/files/read-regular-file.ts
var fs = __toESM(require("fs"));
var OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
var CHUNK_BYTES = 1024 * 1024;

// lib/graph/load-manifests.ts
var MAX_DOCUMENT_BYTES = 3 * 1024 * 1024;
var MAX_FILE_BYTES = 256 * 1024 * 1024;
var sources = /* @__PURE__ */ new WeakMap();
function objectSource(object) {
  return sources.get(object) ?? objectRef(object);
}

// lib/graph/shown.ts
var MAX_DEPTH = 3;
var MAX_STRING = 256;
var MAX_ENTRIES = 20;
function shown(value) {
  return render(value, 0);
}
function render(value, depth) {
  if (typeof value === "string") {
    return value.length > MAX_STRING ? `${JSON.stringify(value.slice(0, MAX_STRING))}\u2026 (${value.length} characters)` : JSON.stringify(value);
  }
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "number") return String(value);
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? String(value);
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null)
    return `<${value.constructor?.name ?? "object"}>`;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? "[\u2026]" : "{\u2026}";
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ENTRIES).map((item) => item === void 0 ? "null" : render(item, depth + 1));
    return `[${items.join(",")}${value.length > MAX_ENTRIES ? ",\u2026" : ""}]`;
  }
  const entries = Object.entries(value).filter(
    ([, v]) => v !== void 0 && typeof v !== "function" && typeof v !== "symbol"
  );
  const shownEntries = entries.slice(0, MAX_ENTRIES).map(([k, v]) => `${render(k, depth)}:${render(v, depth + 1)}`);
  return `{${shownEntries.join(",")}${entries.length > MAX_ENTRIES ? ",\u2026" : ""}}`;
}

// lib/graph/dns-name.ts
var DNS_1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
var DNS_1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
function dnsLabelProblems(name, what, maxLength = 63) {
  if (typeof name !== "string") return [`${what} must be a string, got ${shown(name)}`];
  const problems = [];
  if (!DNS_1123_LABEL.test(name)) {
    problems.push(
      `${what} ${shown(name)} is not a valid DNS-1123 label: use lower-case letters, digits and '-', starting and ending with a letter or digit`
    );
  }
  if (name.length > maxLength) {
    problems.push(`${what} "${name}" is ${name.length} characters long; shorten it to at most ${maxLength}`);
  }
  return problems;
}
function dnsSubdomainProblems(name, what) {
  if (typeof name !== "string") return [`${what} must be a string, got ${shown(name)}`];
  if (DNS_1123_SUBDOMAIN.test(name) && name.length <= 253) return [];
  return [
    `${what} ${shown(name)} is not a valid DNS-1123 subdomain: at most 253 lower-case letters, digits, '-' and '.', starting and ending with a letter or digit`
  ];
}

// lib/graph/label.ts
var LABEL_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
function labelKeyProblems(key, what = "label key") {
  const slash = key.lastIndexOf("/");
  const prefix = slash >= 0 ? key.slice(0, slash) : void 0;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  const valid = (prefix === void 0 || dnsSubdomainProblems(prefix, "").length === 0) && LABEL_NAME.test(name) && name.length <= 63;
  return valid ? [] : [
    `${shown(key)} is not a valid ${what}: an optional DNS prefix and '/', then at most 63 letters, digits, '-', '_' or '.', starting and ending alphanumeric`
  ];
}
function labelValueProblems(value, key) {
  if (typeof value !== "string") return [`label ${key} must have a string value, got ${shown(value)}`];
  if (value === "" || LABEL_NAME.test(value) && value.length <= 63) return [];
  return [
    `label value ${shown(value)} of ${key} is not valid: at most 63 letters, digits, '-', '_' or '.', starting and ending alphanumeric`
  ];
}
function labelsProblems(labels, what) {
  if (typeof labels !== "object" || labels === null || Array.isArray(labels))
    return [`${what} must be an object of label: value, got ${shown(labels)}`];
  return Object.entries(labels).flatMap(
    ([key, value]) => [...labelKeyProblems(key), ...labelValueProblems(value, key)].map((p) => `${what}: ${p}`)
  );
}

// lib/graph/group-kind.ts
function apiGroupOf(apiVersion) {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}
function groupKindOf(type2) {
  const group = apiGroupOf(type2.apiVersion);
  return group === "" ? type2.kind : `${group}/${type2.kind}`;
}

// lib/graph/kinds.ts
var RBAC = "rbac.authorization.k8s.io";
var ADMISSION = "admissionregistration.k8s.io";
var KINDS = {
  Namespace: { scope: "Cluster", rank: 0, role: "definition", bootstrap: true },
  "apiextensions.k8s.io/CustomResourceDefinition": {
    scope: "Cluster",
    rank: 1,
    role: "definition",
    bootstrap: true
  },
  "scheduling.k8s.io/PriorityClass": { scope: "Cluster", rank: 2, role: "pod-prerequisite", bootstrap: true },
  "storage.k8s.io/StorageClass": { scope: "Cluster", rank: 2, bootstrap: true },
  "networking.k8s.io/IngressClass": { scope: "Cluster", rank: 2, bootstrap: true },
  "node.k8s.io/RuntimeClass": { scope: "Cluster", rank: 2, role: "pod-prerequisite", bootstrap: true },
  ServiceAccount: { scope: "Namespaced", rank: 3, role: "pod-prerequisite", bootstrap: true },
  [`${RBAC}/ClusterRole`]: { scope: "Cluster", rank: 4, role: "pod-prerequisite", bootstrap: true },
  [`${RBAC}/ClusterRoleBinding`]: { scope: "Cluster", rank: 5, role: "pod-prerequisite", bootstrap: true },
  [`${RBAC}/Role`]: { scope: "Namespaced", rank: 6, role: "pod-prerequisite", bootstrap: true },
  [`${RBAC}/RoleBinding`]: { scope: "Namespaced", rank: 7, role: "pod-prerequisite", bootstrap: true },
  Secret: { scope: "Namespaced", rank: 8, role: "pod-prerequisite", bootstrap: true },
  ConfigMap: { scope: "Namespaced", rank: 9, role: "pod-prerequisite", bootstrap: true },
  PersistentVolumeClaim: { scope: "Namespaced", rank: 10 },
  Service: { scope: "Namespaced", rank: 11 },
  "apps/StatefulSet": { scope: "Namespaced", rank: 12, role: "workload", pods: "selector" },
  "apps/Deployment": { scope: "Namespaced", rank: 13, role: "workload", pods: "selector" },
  "apps/DaemonSet": { scope: "Namespaced", rank: 14, role: "workload", pods: "selector" },
  "apps/ReplicaSet": { scope: "Namespaced", rank: 14, role: "workload", pods: "selector" },
  "batch/Job": { scope: "Namespaced", rank: 15, role: "workload", pods: "selector" },
  "batch/CronJob": { scope: "Namespaced", rank: 16, role: "workload", pods: "via-jobs" },
  Pod: { scope: "Namespaced", rank: 16, role: "workload", pods: "itself" },
  "policy/PodDisruptionBudget": { scope: "Namespaced", rank: 17 },
  "networking.k8s.io/NetworkPolicy": { scope: "Namespaced", rank: 18, bootstrap: true },
  [`${ADMISSION}/ValidatingWebhookConfiguration`]: { scope: "Cluster", rank: 100, role: "late" },
  [`${ADMISSION}/MutatingWebhookConfiguration`]: { scope: "Cluster", rank: 100, role: "late" },
  "apiregistration.k8s.io/APIService": { scope: "Cluster", rank: 100, role: "late" }
};
var UNKNOWN_KIND = { scope: "Namespaced", rank: 50 };
function kindFacts(type2) {
  return KINDS[groupKindOf(type2)] ?? UNKNOWN_KIND;
}
var BOOTSTRAP_KIND_NAMES = Object.entries(KINDS).filter(([, facts]) => facts.bootstrap).map(([groupKind]) => groupKind.slice(groupKind.indexOf("/") + 1));
function isClusterScoped(type2) {
  return kindFacts(type2).scope === "Cluster";
}

// lib/graph/not-a-kube-object.ts
function notAKubeObject(value, index) {
  return `object ${index + 1} is not a Kubernetes object (apiVersion, kind, metadata.name): ${shown(value).slice(0, 80)}`;
}

// lib/graph/manifest-contract.ts
var BOOTSTRAP_UNIT = "bootstrap";
var LABEL_NAMED_KINDS = /* @__PURE__ */ new Set(["Namespace", "Service"]);
function manifestProblems(objects, where = objectRef) {
  const problems = [];
  const seen = /* @__PURE__ */ new Map();
  if (!Array.isArray(objects)) return [`the manifests must be a list of objects, got ${typeof objects}`];
  for (const [index, object] of objects.entries()) {
    if (!isKubeObject(object)) {
      problems.push(notAKubeObject(object, index));
      continue;
    }
    const at = where(object);
    const { name, namespace, labels, annotations } = object.metadata;
    const nameProblems = LABEL_NAMED_KINDS.has(object.kind) ? dnsLabelProblems(name, `${object.kind} name`) : dnsSubdomainProblems(name, `${object.kind} name`);
    problems.push(...nameProblems.map((p) => `${at}: ${p}; fix the name and re-synthesise`));
    if (namespace !== void 0)
      problems.push(...dnsLabelProblems(namespace, "metadata.namespace").map((p) => `${at}: ${p}`));
    if (labels !== void 0)
      problems.push(...labelsProblems(labels, "metadata.labels").map((p) => `${at}: ${p}`));
    if (annotations !== void 0 && !isStringMap(annotations)) {
      problems.push(`${at}: metadata.annotations must map names to strings, got ${shown(annotations)}`);
      continue;
    }
    const component = annotations?.[Annotations.COMPONENT];
    if (component === void 0 && !kindFacts(object).bootstrap) {
      problems.push(
        `${at}: has no ${Annotations.COMPONENT} annotation; only ${BOOTSTRAP_KIND_NAMES.join(", ")} may be shared bootstrap objects: synthesise it from a component, or add the annotation naming the component that owns it`
      );
    } else if (component === BOOTSTRAP_UNIT) {
      problems.push(
        `${at}: component name "${BOOTSTRAP_UNIT}" is reserved for the objects no component owns; rename the component`
      );
    } else if (component !== void 0) {
      problems.push(...dnsLabelProblems(component, `${Annotations.COMPONENT}`).map((p) => `${at}: ${p}`));
    }
    const key = `${object.apiVersion.split("/").slice(0, -1).join("/")}/${object.kind}/${namespace ?? ""}/${name}`;
    const first = seen.get(key);
    if (first) {
      const owners = [first, object].map(
        (o) => o.metadata.annotations?.[Annotations.COMPONENT] ?? BOOTSTRAP_UNIT
      );
      const owned = owners[0] === owners[1] ? "" : `, owned by both component ${owners[0]} and component ${owners[1]}`;
      problems.push(
        `${at}: the same object as ${where(first)} (same kind, namespace and name)${owned}; remove one of them`
      );
    } else seen.set(key, object);
  }
  return problems;
}
function isStringMap(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "string");
}

// lib/graph/cloud-selection.ts
var SeveralCloudsError = class extends Error {
  constructor(clouds, how) {
    super(`the manifests hold several clouds (${clouds.join(", ")}); ${how(clouds[0])}`);
    this.clouds = clouds;
    this.name = "SeveralCloudsError";
  }
  clouds;
};
function cloudOf(object) {
  const cloud = object.metadata.annotations?.[Annotations.CLOUD];
  return cloud ? cloud : void 0;
}
function cloudNames(objects) {
  const names = /* @__PURE__ */ new Set();
  for (const object of objects) {
    const cloud = cloudOf(object);
    if (cloud !== void 0) names.add(cloud);
  }
  return [...names].sort();
}
function selectCloud(objects, cloud, how) {
  const clouds = cloudNames(objects);
  if (cloud !== void 0 && !clouds.includes(cloud))
    throw new Error(
      clouds.length === 0 ? `no cloud "${cloud}" in the manifests: no object carries the ${Annotations.CLOUD} annotation; leave the cloud out` : `no cloud "${cloud}" in the manifests; they hold ${clouds.join(", ")}: ${how(clouds[0])}`
    );
  if (clouds.length <= 1) return [...objects];
  if (cloud === void 0) throw new SeveralCloudsError(clouds, how);
  const unclaimed = objects.filter((o) => cloudOf(o) === void 0);
  if (unclaimed.length > 0)
    throw new Error(
      `the manifests hold several clouds (${clouds.join(", ")}), and ${unclaimed.map(objectSource).join(", ")} belongs to none: add the ${Annotations.CLOUD} annotation of its cloud, or move it to that cloud's directory`
    );
  return objects.filter((o) => cloudOf(o) === cloud);
}

// lib/graph/component-graph.ts
var CLOUD_ARGUMENT = (example) => `choose one with graphFromManifests(objects, { cloud: '${example}' })`;
function graphFromManifests(all, choice = {}) {
  const problems = manifestProblems(all, objectSource);
  if (problems.length > 0) throw new Error(`invalid manifests:
  ${problems.join("\n  ")}`);
  const objects = selectCloud(all, choice.cloud, choice.how ?? CLOUD_ARGUMENT);
  const byName2 = /* @__PURE__ */ new Map();
  const bootstrap = [];
  for (const object of objects) {
    const name = object.metadata.annotations?.[Annotations.COMPONENT];
    if (!name) {
      bootstrap.push(object);
      continue;
    }
    const entry = byName2.get(name);
    if (entry) entry.objects.push(object);
    else byName2.set(name, { first: object, objects: [object] });
  }
  const components = [];
  for (const [name, { first, objects: owned }] of byName2) {
    const annotations = first.metadata.annotations ?? {};
    for (const other of owned) {
      if ((other.metadata.annotations?.[Annotations.DEPENDS_ON] ?? "") !== (annotations[Annotations.DEPENDS_ON] ?? "")) {
        throw new Error(
          `component ${name}: ${objectRef(other)} and ${objectRef(first)} disagree on ${Annotations.DEPENDS_ON}; re-synthesise instead of editing the YAML`
        );
      }
    }
    components.push({
      name,
      service: annotations[Annotations.SERVICE] ?? name,
      cloud: annotations[Annotations.CLOUD] ?? "",
      constructPath: annotations[Annotations.CONSTRUCT_PATH] ?? name,
      edges: decodeDependsOn(name, annotations[Annotations.DEPENDS_ON]),
      objects: owned
    });
  }
  components.sort((a, b) => a.name.localeCompare(b.name));
  const edges = components.flatMap((c) => c.edges);
  const graph = { components, bootstrap, edges };
  assertGraphIsClosedAndAcyclic(graph);
  return graph;
}
function assertGraphIsClosedAndAcyclic(graph) {
  const names = graph.components.map((c) => c.name);
  const known = new Set(names);
  for (const edge of graph.edges) {
    if (!known.has(edge.to)) {
      throw new Error(
        `component ${edge.from} depends on ${edge.to} (${edge.kind}), which is not in the manifests`
      );
    }
  }
  const cycle = findCycle(names, graph.edges);
  if (cycle) throw new Error(`dependency cycle between components: ${cycle.join(" -> ")}`);
}

// lib/graph/forced-downscale.ts
var FORCED_DOWNSCALE_LABEL = "state.yaook.cloud/forced-downscale";

// lib/graph/openstack-releases.ts
var SUPPORTED_RELEASES = ["2024.2", "2025.1"];
var DEFAULT_RELEASE = SUPPORTED_RELEASES[SUPPORTED_RELEASES.length - 1];
var OPENSTACK_SERIES = [
  { release: "2024.1", codename: "caracal", slurp: true },
  { release: "2024.2", codename: "dalmatian", slurp: false },
  { release: "2025.1", codename: "epoxy", slurp: true },
  { release: "2025.2", codename: "flamingo", slurp: false },
  { release: "2026.1", codename: "gazpacho", slurp: true }
];
function isSupportedRelease(value) {
  return typeof value === "string" && SUPPORTED_RELEASES.includes(value);
}

// lib/testing/synth-part.ts
var import_cdk8s = require("cdk8s");
var synthesised = /* @__PURE__ */ new WeakMap();
function synthObjects(cloud) {
  let objects = synthesised.get(cloud);
  if (!objects) {
    objects = import_cdk8s.Testing.synth(cloud);
    synthesised.set(cloud, objects);
  }
  return objects;
}

// lib/model/cloud.ts
var import_cdk8s5 = require("cdk8s");
var import_cdk8s_plus_33 = require("cdk8s-plus-33");

// lib/model/markers.ts
var CLOUD_MARKER = /* @__PURE__ */ Symbol.for("stackwright.Cloud");
var SERVICE_MARKER = /* @__PURE__ */ Symbol.for("stackwright.Service");
var COMPONENT_MARKER = /* @__PURE__ */ Symbol.for("stackwright.Component");
var JSON_API_OBJECT_MARKER = /* @__PURE__ */ Symbol.for("stackwright.JsonApiObject");
function hasMarker(x, marker) {
  return typeof x === "object" && x !== null && marker in x;
}
function mark(target, marker) {
  Object.defineProperty(target, marker, { value: true });
}
function closest(scope, marker) {
  for (let s = scope; s; s = s.node.scope) if (hasMarker(s, marker)) return s;
  return void 0;
}

// lib/model/model-generation.ts
var generation = 0;
function modelGeneration() {
  return generation;
}
function modelChanged() {
  generation++;
}

// lib/model/synthesis-plan.ts
var import_cdk8s2 = require("cdk8s");
var MANAGED_BY = ["app.kubernetes.io/managed-by", "stackwright"];
var SynthesisPlan = class {
  /**
   * Built by `Cloud.plan()`, never directly.
   * @internal
   * @param cloud the cloud to plan
   * @param generation the model generation the plan is valid for
   * @param walked the cloud's components and objects, from {@link walkCloud}
   */
  constructor(cloud, generation2, walked) {
    this.generation = generation2;
    this.cloudName = cloud.cloudName;
    this.components = walked.components;
    this.constructCount = walked.constructCount;
    this.enabled = walked.components.filter((c) => c.enabled);
    this.edges = new Map(walked.components.map((c) => [c, c._resolveEdges()]));
    for (const consumer of this.enabled) {
      for (const { target } of this.edgesOf(consumer)) {
        const list = this.consumers.get(target);
        if (list) list.push(consumer);
        else this.consumers.set(target, [consumer]);
      }
    }
    this.objects = placeObjects(
      cloud,
      walked.objects,
      this.enabled.some((c) => cloud.isNodeAgent(c))
    );
  }
  generation;
  /** Every component of the cloud, enabled or not, in tree order. */
  components;
  /** The enabled components, in tree order. */
  enabled;
  /** Every object of the cloud's subtree, in tree order. */
  objects;
  /** How many constructs the walk found: a cheap test that nothing was added since. */
  constructCount;
  edges;
  consumers = /* @__PURE__ */ new Map();
  metadata = /* @__PURE__ */ new Map();
  cloudName;
  _ordered;
  /**
   * The enabled components in deployment order (gating dependencies first, ties by name). Computed
   * when first read: with a cycle it throws, and the cloud's check reports the cycle first.
   */
  get ordered() {
    if (!this._ordered) {
      const byName2 = new Map(this.enabled.map((c) => [c.componentName, c]));
      this._ordered = topologicalOrder([...byName2.keys()], this.namedEdges(this.enabled)).map(
        (name) => byName2.get(name)
      );
    }
    return this._ordered;
  }
  /** `component`'s edges, resolved to components, without duplicates (the strongest declaration wins). */
  edgesOf(component) {
    return this.edges.get(component) ?? [];
  }
  /** True when the plan knows `component` (it was in the cloud when the plan was built). */
  has(component) {
    return this.edges.has(component);
  }
  /** The enabled components with an edge (of any kind) to `component`, in tree order. */
  consumersOf(component) {
    return this.consumers.get(component) ?? [];
  }
  /** The edges among `components` by name, as the graph functions take them. */
  namedEdges(components) {
    return components.flatMap(
      (c) => this.edgesOf(c).map((e) => ({ from: c.componentName, to: e.target.componentName, kind: e.kind }))
    );
  }
  /**
   * The labels and annotations rendering adds to an object of `component`, or to one of the cloud's
   * own objects (the namespaces, the default-deny policy) when `component` is undefined.
   */
  metadataOf(component) {
    let metadata = this.metadata.get(component);
    if (!metadata) {
      const cloud = [Annotations.CLOUD, this.cloudName];
      const dependsOn = component && encodeDependsOn(this.edgesOf(component).map((e) => ({ to: e.target.componentName, kind: e.kind })));
      metadata = component ? {
        labels: sortedEntries([
          MANAGED_BY,
          ["app.kubernetes.io/name", component.service?.appName ?? component.componentName],
          ["app.kubernetes.io/part-of", "openstack"],
          ...Object.entries(component.selectorLabels)
        ]),
        annotations: sortedEntries([
          cloud,
          [Annotations.COMPONENT, component.componentName],
          [Annotations.SERVICE, component.serviceName],
          [Annotations.CONSTRUCT_PATH, component.node.path],
          ...dependsOn ? [[Annotations.DEPENDS_ON, dependsOn]] : []
        ])
      } : { labels: [MANAGED_BY], annotations: [cloud] };
      this.metadata.set(component, metadata);
    }
    return metadata;
  }
};
function walkCloud(scope) {
  const components = [];
  const objects = [];
  let constructCount = 0;
  const walk = (construct, owner) => {
    constructCount++;
    let current = owner;
    if (hasMarker(construct, COMPONENT_MARKER)) {
      current = construct;
      components.push(current);
    }
    if (construct instanceof import_cdk8s2.ApiObject) objects.push({ object: construct, component: current });
    for (const child of construct.node.children) walk(child, current);
  };
  walk(scope, void 0);
  return { components, objects, constructCount };
}
function placeObjects(cloud, objects, agents) {
  return objects.map(({ object, component }) => {
    const enabled = component === void 0 || component.enabled;
    const clusterScoped = isClusterScoped(object);
    const namespace = clusterScoped ? void 0 : component && cloud.isNodeAgent(component) ? cloud.agentNamespace : object.metadata.namespace ?? cloud.namespace;
    const unusedAgentNamespace = !agents && (clusterScoped ? object.kind === "Namespace" && object.name === cloud.agentNamespace : namespace === cloud.agentNamespace);
    return {
      object,
      component,
      rendered: enabled && !unusedAgentNamespace,
      namespace,
      key: [object.apiVersion.split("/")[0], object.kind, namespace ?? "", object.name].join("/")
    };
  });
}
function sortedEntries(entries) {
  return Object.entries(Object.fromEntries(entries)).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
}

// lib/model/common-labels.ts
var OWN_LABELS = [
  "app.kubernetes.io/name",
  "app.kubernetes.io/instance",
  "app.kubernetes.io/component",
  "app.kubernetes.io/part-of",
  "app.kubernetes.io/managed-by"
];
function reservation(key) {
  if (OWN_LABELS.includes(key))
    return "Stackwright sets it on every object (selectors and the inventory read it)";
  if (key.startsWith(`${ANNOTATION_PREFIX}/`) || key.split("/")[0].endsWith(`.${ANNOTATION_PREFIX}`))
    return `the ${ANNOTATION_PREFIX} prefix belongs to Stackwright's manifest contract`;
  if (key === FORCED_DOWNSCALE_LABEL)
    return "it is reserved by Yaook to downscale DaemonSets to zero and must never be set by hand";
  return void 0;
}
function commonLabelsProblems(labels, name) {
  if (labels === void 0) return [];
  const shape = labelsProblems(labels, name);
  if (shape.length > 0) return shape;
  return Object.keys(labels).flatMap((key) => {
    const why = reservation(key);
    return why ? [
      `${name} must not set ${key}: ${why}; remove it or use a label key of your own (e.g. example.com/team)`
    ] : [];
  });
}

// lib/model/json-api-object.ts
var import_cdk8s3 = require("cdk8s");

// lib/model/generated/k8s-json-names.ts
var RENAMED_FIELDS = /* @__PURE__ */ new Map([
  ["clientIp", "clientIP"],
  ["clusterIp", "clusterIP"],
  ["datasetUuid", "datasetUUID"],
  ["diskUri", "diskURI"],
  ["downwardApi", "downwardAPI"],
  ["externalId", "externalID"],
  ["hostIp", "hostIP"],
  ["hostIpc", "hostIPC"],
  ["hostPid", "hostPID"],
  ["insecureSkipTlsVerify", "insecureSkipTLSVerify"],
  ["loadBalancerIp", "loadBalancerIP"],
  ["nodeId", "nodeID"],
  ["nonResourceUrLs", "nonResourceURLs"],
  ["openApiv3Schema", "openAPIV3Schema"],
  ["pdId", "pdID"],
  ["podCidRs", "podCIDRs"],
  ["podCidr", "podCIDR"],
  ["providerId", "providerID"],
  ["ref", "$ref"],
  ["scaleIo", "scaleIO"],
  ["setHostnameAsFqdn", "setHostnameAsFQDN"],
  ["storagePolicyId", "storagePolicyID"],
  ["targetCpuUtilizationPercentage", "targetCPUUtilizationPercentage"],
  ["targetWwNs", "targetWWNs"],
  ["volumeId", "volumeID"],
  ["xKubernetesEmbeddedResource", "x-kubernetes-embedded-resource"],
  ["xKubernetesIntOrString", "x-kubernetes-int-or-string"],
  ["xKubernetesListMapKeys", "x-kubernetes-list-map-keys"],
  ["xKubernetesListType", "x-kubernetes-list-type"],
  ["xKubernetesMapType", "x-kubernetes-map-type"],
  ["xKubernetesPreserveUnknownFields", "x-kubernetes-preserve-unknown-fields"],
  ["xKubernetesValidations", "x-kubernetes-validations"]
]);
var AMBIGUOUS_FIELDS = /* @__PURE__ */ new Set([
  "schema"
]);
var MAP_FIELDS = /* @__PURE__ */ new Set([
  "annotations",
  "attributes",
  "binaryData",
  "capacity",
  "counters",
  "data",
  "default",
  "defaultRequest",
  "definitions",
  "dependencies",
  "deprecatedTopology",
  "extra",
  "hard",
  "labels",
  "limits",
  "matchLabels",
  "max",
  "maxLimitRequestRatio",
  "min",
  "nodeSelector",
  "options",
  "overhead",
  "parameters",
  "patternProperties",
  "podFixed",
  "properties",
  "requests",
  "selector",
  "stringData",
  "volumeAttributes"
]);

// lib/model/validation/check.ts
function addCheck(scope, check) {
  scope.node.addValidation({ validate: check });
}
var ValidationError = class extends Error {
  constructor(where, problems) {
    super(formatProblems(where, problems));
    this.where = where;
    this.problems = problems;
    this.name = "ValidationError";
  }
  where;
  problems;
};
function formatProblems(where, problems) {
  return `Validation failed with the following errors:
  ${problems.map((p) => `[${where}] ${p}`).join("\n  ")}`;
}
function assertNoProblems(scope, problems) {
  if (problems.length > 0) throw new ValidationError(scope.node.path || "<root>", problems);
}

// lib/model/validation/construct-id.ts
function freeConstructId(scope, id) {
  if (scope.node.tryFindChild(id) === void 0) return id;
  const where = scope.node.path ? `${scope.node.path}/${id}` : id;
  throw new ValidationError(where, [`a construct with id ${id} already exists here; choose another id`]);
}

// lib/model/json-api-object.ts
var JsonApiObject = class extends import_cdk8s3.ApiObject {
  /**
   * True when `x` is a JsonApiObject. (`instanceof` cannot tell: it answers `ApiObject.isApiObject`
   * for every subclass.)
   */
  static isJsonApiObject(x) {
    return hasMarker(x, JSON_API_OBJECT_MARKER);
  }
  /**
   * The object as it was built: `apiVersion`, `kind` and the props as given (their TypeScript
   * names, `clusterIp` for `clusterIP`; `Lazy` values unresolved; metadata added at synthesis not
   * included). Rendering converts the names in the same walk that resolves and sorts.
   */
  manifest;
  constructor(scope, id, kind, props) {
    const manifest = { ...kind.GVK, ...props };
    super(scope, freeConstructId(scope, id), {
      ...kind.GVK,
      metadata: plainJson(manifest.metadata)
    });
    mark(this, JSON_API_OBJECT_MARKER);
    this.manifest = manifest;
  }
  /** Whether JSON patches were added: cdk8s applies them (`patches` is private to `ApiObject`). */
  patched = false;
  addJsonPatch(...ops) {
    this.patched = true;
    super.addJsonPatch(...ops);
  }
  /**
   * Renders the object as `ApiObject.toJson()` does, in one walk: cdk8s resolves the props (building
   * the path of every value as it goes) and then copies them again to sort their keys. With resolvers
   * of the user's own in the App, JSON patches, or `CDK8S_DISABLE_SORT` set, cdk8s renders it.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- cdk8s' own signature
  toJson() {
    if (this.patched || process.env.CDK8S_DISABLE_SORT || !import_cdk8s3.App.of(this).resolvers.every(isBuiltInResolver)) {
      this.props = plainJson(this.manifest);
      return super.toJson();
    }
    try {
      const { apiVersion, kind, ...rest } = renderJson(
        { ...this.manifest, metadata: void 0 },
        false
      );
      return { apiVersion, kind, metadata: this.metadata.toJson(), ...rest };
    } catch (e) {
      throw new Error(
        `Failed serializing construct at path '${this.node.path}' with name '${this.name}': ${e}`
      );
    }
  }
};
function isBuiltInResolver(resolver) {
  return resolver instanceof import_cdk8s3.LazyResolver || resolver instanceof import_cdk8s3.ImplicitTokenResolver || resolver instanceof import_cdk8s3.NumberStringUnionResolver;
}
function renderJson(value, isMap) {
  if (value === null || value === void 0) return void 0;
  if (value instanceof import_cdk8s3.Lazy) return renderJson(value.produce(), isMap);
  if (typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => renderJson(item, false));
  const token = value;
  const plain = Object.getPrototypeOf(value) === Object.prototype;
  if (!plain && (typeof token.value === "string" || typeof token.value === "number")) return token.value;
  if (typeof token.resolve === "function") return renderJson(token.resolve(), isMap);
  if (!plain) throw new Error(`can't render non-simple object of type '${token.constructor?.name}'`);
  const names = Object.keys(value);
  let renamed;
  if (!isMap) {
    for (let i = 0; i < names.length; i++) {
      const special = SPECIAL_FIELDS.get(names[i]);
      if (special === void 0 || special === MAP) continue;
      const name = jsonName(names[i], special);
      (renamed ??= /* @__PURE__ */ new Map()).set(name, names[i]);
      names[i] = name;
    }
  }
  names.sort();
  const rendered = {};
  for (const name of names) {
    const key = renamed?.get(name) ?? name;
    const field = renderJson(
      value[key],
      !isMap && SPECIAL_FIELDS.get(key) === MAP
    );
    if (field !== void 0 && field !== null) rendered[name] = field;
  }
  return rendered;
}
function plainJson(value, isMap = false) {
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof import_cdk8s3.Lazy) return import_cdk8s3.Lazy.any({ produce: () => plainJson(value.produce(), isMap) });
  if (Array.isArray(value)) {
    let copy2;
    for (let i = 0; i < value.length; i++) {
      const item = plainJson(value[i]);
      if (item !== value[i]) (copy2 ??= [...value])[i] = item;
    }
    return copy2 ?? value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) {
    const held = value.value;
    return typeof held === "string" || typeof held === "number" ? held : value;
  }
  let copy;
  for (const key in value) {
    const field = value[key];
    const special = isMap ? void 0 : SPECIAL_FIELDS.get(key);
    const plain = plainJson(field, special === MAP);
    const name = special === void 0 || special === MAP ? key : jsonName(key, special);
    if (name !== key) {
      copy ??= { ...value };
      delete copy[key];
      copy[name] = plain;
    } else if (plain !== field) (copy ??= { ...value })[key] = plain;
  }
  return copy ?? value;
}
var MAP = /* @__PURE__ */ Symbol("map");
var AMBIGUOUS = /* @__PURE__ */ Symbol("ambiguous");
var SPECIAL_FIELDS = new Map([
  ...[...MAP_FIELDS].map((field) => [field, MAP]),
  ...RENAMED_FIELDS,
  ...[...AMBIGUOUS_FIELDS].map((field) => [field, AMBIGUOUS])
]);
function jsonName(field, special) {
  if (special === AMBIGUOUS) {
    throw new Error(
      `field "${field}" has another JSON name in some Kubernetes types; define this object with its typed k8s class`
    );
  }
  return special;
}

// lib/model/pod-security.ts
function podSecurityLabels(level) {
  const labels = {};
  for (const mode of ["enforce", "warn", "audit"]) {
    labels[`pod-security.kubernetes.io/${mode}`] = level;
    labels[`pod-security.kubernetes.io/${mode}-version`] = "latest";
  }
  return labels;
}

// lib/model/stray-objects.ts
var import_cdk8s4 = require("cdk8s");
function strayObjectProblems(cloud, objects) {
  const inside = objects.filter(({ object, component }) => component === void 0 && !kindFacts(object).bootstrap).map(
    ({ object: o }) => `${o.node.path}: a ${o.kind} outside every component has no place in the rollout (no edges, no readiness gate); create it inside a Component (new Component(cloud, 'extras') and new JsonApiObject(component, \u2026)); only ${BOOTSTRAP_KIND_NAMES.join(", ")} may stand outside one`
  );
  return [...inside, ...isFirstCloud(cloud) ? foreignObjectProblems(cloud.node.root) : []];
}
function isFirstCloud(cloud) {
  return firstCloud(cloud.node.root) === cloud;
}
function firstCloud(scope) {
  if (hasMarker(scope, CLOUD_MARKER)) return scope;
  for (const child of scope.node.children) {
    const found = firstCloud(child);
    if (found) return found;
  }
  return void 0;
}
function foreignObjectProblems(root) {
  return objectsOutsideClouds(root).map(
    (o) => `${o.node.path}: ${o.kind} "${o.name}" is in the same App as this cloud but in no cloud; the output directory is read as the cloud's graph (deploy, graph, the exports), which would refuse it: move it into the cloud inside a Component, or synthesise it with an App of its own and another outdir (new App({ outdir: 'dist-extra' }))`
  );
}
function objectsOutsideClouds(scope, found = []) {
  if (hasMarker(scope, CLOUD_MARKER)) return found;
  if (scope instanceof import_cdk8s4.ApiObject) found.push(scope);
  for (const child of scope.node.children) objectsOutsideClouds(child, found);
  return found;
}

// lib/model/uncaught-errors.ts
var INSTALLED = /* @__PURE__ */ Symbol.for("stackwright.uncaughtErrors");
var STACK_TRACES_VARIABLE = "STACKWRIGHT_STACK_TRACES";
var CDK8S_VALIDATION = "Validation failed with the following errors:";
function isInputError(error) {
  if (!(error instanceof Error)) return false;
  return error.name === "ValidationError" || error.message.startsWith(CDK8S_VALIDATION) || /^\[[^\]\n]+\] \S/.test(error.message);
}
function inputErrorReport(error) {
  return `${error.message.trimEnd()}
`;
}
function reportUncaughtInputErrors(env = process.env) {
  const owner = process;
  if (owner[INSTALLED] || env[STACK_TRACES_VARIABLE] === "1" || underTestRunner(env)) return;
  owner[INSTALLED] = true;
  const onError = (error) => {
    if (isInputError(error)) {
      process.stderr.write(inputErrorReport(error));
      process.exit(1);
    }
    process.off("uncaughtException", onError);
    process.off("unhandledRejection", onError);
    process.nextTick(() => {
      throw error;
    });
  };
  process.on("uncaughtException", onError);
  process.on("unhandledRejection", onError);
}
function underTestRunner(env) {
  return env.JEST_WORKER_ID !== void 0 || env.VITEST !== void 0 || env.NODE_TEST_CONTEXT !== void 0;
}

// lib/model/releases.ts
function releaseProblems(value, name) {
  if (value === void 0 || isSupportedRelease(value)) return [];
  const supported = SUPPORTED_RELEASES.map((r) => `'${r}'`).join(", ");
  const numbered = typeof value === "string" ? OPENSTACK_SERIES.find((s) => s.codename === value.trim().toLowerCase())?.release : void 0;
  const hint = isSupportedRelease(numbered) ? `; ${shown(value)} is the codename of '${numbered}': write release: '${numbered}'` : `; this package carries option schemas and images for ${supported} only`;
  return [`${name} must be one of ${supported}, got ${shown(value)}${hint}`];
}

// lib/model/validation/image.ts
function imageProblems(value, what = "image") {
  if (typeof value === "string" && value !== "" && !/[\s\p{Cc}]/u.test(value)) return [];
  return [
    `${what} ${shown(value)} is not an image reference; give one without spaces, e.g. 'registry.example.com/keystone:2025.1'`
  ];
}
var IMAGE_TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
function imageTagProblems(value, what = "tag") {
  if (typeof value === "string" && IMAGE_TAG.test(value)) return [];
  return [
    `${what} ${shown(value)} is not an image tag; use up to 128 letters, digits, '_', '.' and '-', e.g. '2025.1'`
  ];
}

// lib/model/validation/known-keys.ts
function unknownKeyProblems(value, known, what) {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return [`${what} must be an object, got ${shown(value)}`];
  const unknown = Object.keys(value).filter((key) => !known.includes(key));
  return unknown.map(
    (key) => `${what} has an unknown key ${shown(key)}; the known keys are ${known.join(", ") || "none"}`
  );
}

// lib/scheduling/scheduling-key.ts
var SchedulingKey = {
  // Operators
  /** Used to schedule any of the Yaook operator Jobs. */
  OPERATOR_ANY: "operator.yaook.cloud/any",
  /** Used to schedule yaook.op.barbican Jobs. */
  OPERATOR_BARBICAN: "operator.yaook.cloud/barbican",
  /** Used to schedule yaook.op.cinder Jobs. */
  OPERATOR_CINDER: "operator.yaook.cloud/cinder",
  /** Used to schedule the Jobs of the configured-daemon-set operator. */
  OPERATOR_CONFIGURED_DAEMON_SET: "operator.yaook.cloud/configured-daemon-set",
  /** Used to schedule yaook.op.glance Jobs. */
  OPERATOR_GLANCE: "operator.yaook.cloud/glance",
  /** Used to schedule yaook.op.heat Jobs. */
  OPERATOR_HEAT: "operator.yaook.cloud/heat",
  /** Used to schedule yaook.op.infra_ironic Jobs. */
  OPERATOR_INFRA_IRONIC: "operator.yaook.cloud/infra-ironic",
  /** Used to schedule yaook.op.keystone Jobs. */
  OPERATOR_KEYSTONE: "operator.yaook.cloud/keystone",
  /** Used to schedule yaook.op.neutron Jobs. */
  OPERATOR_NEUTRON: "operator.yaook.cloud/neutron",
  /** Used to schedule yaook.op.nova Jobs. */
  OPERATOR_NOVA: "operator.yaook.cloud/nova",
  /** Used to schedule yaook.op.gnocchi Jobs. */
  OPERATOR_GNOCCHI: "operator.yaook.cloud/gnocchi",
  /** Used to schedule yaook.op.ceilometer Jobs. */
  OPERATOR_CEILOMETER: "operator.yaook.cloud/ceilometer",
  // Infrastructure services
  /** Used to schedule any infrastructure component. */
  ANY_INFRA: "infra.yaook.cloud/any",
  /** Used to schedule database-related services. */
  INFRA_DATABASE: "infra.yaook.cloud/db",
  /** Used to schedule ovsdb-server raft clusters. */
  INFRA_OVSDB_CLUSTER: "infra.yaook.cloud/ovsdbcluster",
  /** Used to schedule services related to or implementing message queues. */
  INFRA_MESSAGE_QUEUE: "infra.yaook.cloud/mq",
  // API services
  /** Used to schedule any of the OpenStack API service deployments. */
  ANY_API: "any.yaook.cloud/api",
  /** Used to schedule the cinder-api Deployment. */
  BLOCK_STORAGE_API: "block-storage.yaook.cloud/api",
  /** Used to schedule the glance-api Deployment. */
  IMAGE_API: "image.yaook.cloud/api",
  /** Used to schedule the infra-ironic-api Deployment. */
  INFRA_BARE_METAL_API: "infra-bare-metal.yaook.cloud/api",
  /** Used to schedule the keystone-api Deployment. */
  IDENTITY_API: "identity.yaook.cloud/api",
  /** Used to schedule the neutron-api Deployment. */
  NETWORK_API: "network.yaook.cloud/api",
  /** Used to schedule the nova-api Deployment. */
  COMPUTE_API: "compute.yaook.cloud/api",
  /** Used to schedule the nova-metadata-api Deployment. */
  COMPUTE_METADATA_API: "compute.yaook.cloud/metadata-api",
  /** Used to schedule the barbican-api deployment. */
  KEY_MANAGER_API: "key-manager.yaook.cloud/api",
  /** Used to schedule the placement-api Deployment. */
  PLACEMENT_API: "placement.yaook.cloud/api",
  /** Used to schedule gnocchi-api Deployment. */
  GNOCCHI_API: "gnocchi.yaook.cloud/api",
  // Barbican supporting services
  /** Used to schedule any of the barbican supporting services (barbican-keystone-listener). */
  KEY_MANAGER_BARBICAN_ANY_SERVICE: "key-manager.yaook.cloud/barbican-any-service",
  /** Used to schedule the barbican-keystone-listener service. */
  KEY_MANAGER_BARBICAN_KEYSTONE_LISTENER: "key-manager.yaook.cloud/barbican-keystone-listener",
  // Cinder supporting services
  /** Used to schedule any of the Cinder supporting services (backup, volume, scheduler). */
  BLOCK_STORAGE_CINDER_ANY_SERVICE: "block-storage.yaook.cloud/cinder-any-service",
  /** Used to schedule the cinder-backup service. */
  BLOCK_STORAGE_CINDER_BACKUP: "block-storage.yaook.cloud/cinder-backup",
  /** Used to schedule the cinder-scheduler service. */
  BLOCK_STORAGE_CINDER_SCHEDULER: "block-storage.yaook.cloud/cinder-scheduler",
  /** Used to schedule the cinder-volume service. */
  BLOCK_STORAGE_CINDER_VOLUME: "block-storage.yaook.cloud/cinder-volume",
  // Infrastructure Ironic supporting services
  /** Used to schedule any of the Ironic supporting services for the infrastructure bare metal service. */
  INFRA_BARE_METAL_IRONIC_ANY_SERVICE: "infra-bare-metal.yaook.cloud/ironic-any-service",
  /** Used to schedule the infra-ironic-conductor Statefulset. */
  INFRA_BARE_METAL_IRONIC_CONDUCTOR: "infra-bare-metal.yaook.cloud/conductor",
  // Nova supporting services
  /** Used to schedule any of the Nova supporting services (conductor, scheduler). */
  COMPUTE_NOVA_ANY_SERVICE: "compute.yaook.cloud/nova-any-service",
  /** Used to schedule the nova-conductor Deployment. */
  COMPUTE_NOVA_CONDUCTOR: "compute.yaook.cloud/nova-conductor",
  /** Used to schedule the nova-scheduler Deployment. */
  COMPUTE_NOVA_SCHEDULER: "compute.yaook.cloud/nova-scheduler",
  /** Used to schedule the nova-consoleauth Deployment. */
  COMPUTE_NOVA_CONSOLEAUTH: "compute.yaook.cloud/nova-consoleauth",
  /** Used to schedule the vnc Deployment. */
  COMPUTE_VNC: "compute.yaook.cloud/vnc",
  // Network services
  /** Used to schedule the neutron-l2-agent Statefulset, among other scheduling keys. */
  NETWORK_NEUTRON_L2_AGENT: "network.yaook.cloud/neutron-l2-agent",
  /** Used to schedule the neutron-l3-agent Statefulset. */
  NETWORK_NEUTRON_L3_AGENT: "network.yaook.cloud/neutron-l3-agent",
  /** Used to schedule the neutron-dhcp-agent Statefulset. */
  NETWORK_NEUTRON_DHCP_AGENT: "network.yaook.cloud/neutron-dhcp-agent",
  /** Used to schedule the neutron-bgp-dragent Statefulset. */
  NETWORK_NEUTRON_BGP_DRAGENT: "network.yaook.cloud/neutron-bgp-dragent",
  /** Used to schedule the neutron-bgp-dragent or neutron-ovn-bgp Statefulset. */
  NETWORK_NEUTRON_BGP_AGENT: "network.yaook.cloud/neutron-bgp-agent",
  /** Used to schedule the ovn-northd Deployment. */
  NETWORK_NEUTRON_NORTHD: "network.yaook.cloud/neutron-northd",
  /** Used to schedule the ovn-controller, openvswitchd and ovs-db Statefulsets. */
  NETWORK_NEUTRON_OVN_AGENT: "network.yaook.cloud/neutron-ovn-agent",
  // Compute services
  /** Used to schedule the nova-compute and libvirt Statefulset. */
  COMPUTE_HYPERVISOR: "compute.yaook.cloud/hypervisor",
  // Gnocchi supporting services
  /** Used to schedule the gnocchi-metricd Deployment. */
  GNOCCHI_METRICD: "gnocchi.yaook.cloud/metricd",
  // Ceilometer services
  /** Used to schedule any of the Ceilometer services (central, notification). */
  CEILOMETER_ANY_SERVICE: "ceilometer.yaook.cloud/ceilometer-any-service",
  /** Used to schedule the ceilometer-notification Deployment. */
  CEILOMETER_NOTIFICATION: "ceilometer.yaook.cloud/notification",
  /** Used to schedule the ceilometer-central Deployment. */
  CEILOMETER_CENTRAL: "ceilometer.yaook.cloud/central"
};
var ALL_KEYS = new Set(Object.values(SchedulingKey));
function isSchedulingKey(value) {
  return ALL_KEYS.has(value);
}

// lib/scheduling/reserved-labels.ts
var OVN_MAINTENANCE_LABEL = "maintenance.yaook.cloud/ovn-maintenance";
var OVN_NO_MAINTENANCE_VALUE = "not-required";
function reservedNodeLabelProblems(keys, where) {
  const problems = [];
  for (const key of keys) {
    if (key === FORCED_DOWNSCALE_LABEL) {
      problems.push(
        `${where} uses the reserved label ${FORCED_DOWNSCALE_LABEL}; it is set only by Stackwright to downscale a DaemonSet to zero and must never match a node. Remove it (use \`forcedDownscale: true\` on the component instead).`
      );
    }
  }
  return problems;
}

// lib/scheduling/placement.ts
function placement(key, ...groups) {
  return { keys: unique([key, ...groups]), requiredLabels: {}, nodeSelector: {} };
}
function groupPlacement(group) {
  return placement(group);
}
function operatorJobPlacement(operatorKey) {
  return placement(operatorKey, SchedulingKey.OPERATOR_ANY);
}
function ovnAgentPlacement(dependantKeys) {
  return placement(SchedulingKey.NETWORK_NEUTRON_OVN_AGENT, ...[...dependantKeys].sort());
}
function requiringNoOvnMaintenance(base) {
  return withRequiredLabels(base, { [OVN_MAINTENANCE_LABEL]: OVN_NO_MAINTENANCE_VALUE });
}
function withRequiredLabels(base, labels) {
  return { ...base, requiredLabels: { ...base.requiredLabels, ...labels } };
}
function restrictedTo(base, nodeSelector) {
  return { ...base, nodeSelector: { ...base.nodeSelector, ...nodeSelector } };
}
function unique(values) {
  return values.filter((v, i) => values.indexOf(v) === i);
}

// lib/scheduling/pod-scheduling.ts
var EFFECTS = ["NoSchedule", "NoExecute"];
function podScheduling(p, options = {}) {
  const narrowing = Object.entries({ ...p.requiredLabels, ...p.nodeSelector }).sort(([a], [b]) => a.localeCompare(b)).map(([key, value]) => ({ key, operator: "In", values: [value] }));
  return {
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: p.keys.map((key) => ({
            matchExpressions: [{ key, operator: "Exists" }, ...narrowing]
          }))
        }
      }
    },
    tolerations: p.keys.flatMap(
      (key) => EFFECTS.map((effect) => ({ key, operator: "Exists", effect }))
    ),
    ...options.forcedDownscale ? { nodeSelector: { [FORCED_DOWNSCALE_LABEL]: "true" } } : {}
  };
}

// lib/model/validation/range.ts
function rangeProblems(name, value, range) {
  if (value === void 0) return [];
  const bounds = describeBounds(range);
  if (typeof value !== "number") return [`${name} must be a number${bounds}, got ${shown(value)}`];
  if (!Number.isFinite(value)) return [`${name} must be a finite number${bounds}, got ${value}`];
  if (range.integer !== false && !Number.isInteger(value))
    return [`${name} must be a whole number${bounds}, got ${value}`];
  const tooLow = range.min !== void 0 && value < range.min;
  const tooHigh = range.max !== void 0 && value > range.max;
  if (!tooLow && !tooHigh) return [];
  if (range.min !== void 0 && range.max !== void 0) {
    return [`${name} must be between ${range.min} and ${range.max}, got ${value}`];
  }
  return tooLow ? [`${name} must be >= ${range.min}, got ${value}`] : [`${name} must be <= ${range.max}, got ${value}`];
}
function describeBounds(range) {
  if (range.min !== void 0 && range.max !== void 0) return ` between ${range.min} and ${range.max}`;
  if (range.min !== void 0) return ` >= ${range.min}`;
  if (range.max !== void 0) return ` <= ${range.max}`;
  return "";
}

// lib/model/validation/port.ts
function portProblems(value, what) {
  return rangeProblems(what, value, { min: 1, max: 65535 });
}

// lib/model/validation/quantity.ts
var QUANTITY = /^[+-]?(\d+(\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;
function quantityProblems(value, what) {
  if (typeof value === "string" && QUANTITY.test(value) && !value.startsWith("-")) return [];
  return [
    `${what} ${shown(value)} is not a Kubernetes quantity; write a number with an optional suffix and no space, e.g. '10Gi', '512Mi', '250m'`
  ];
}

// lib/model/validation/single-line.ts
var CONTROL = /(?!\t)[\p{Cc}\u2028\u2029]/u;
function singleLineProblems(value, what) {
  if (typeof value !== "string") return [`${what} must be a string, got ${shown(value)}`];
  return CONTROL.test(value) ? [`${what} ${shown(value)} contains a line break or control character; put it on one line`] : [];
}
function isSingleLine(value) {
  return !CONTROL.test(value);
}

// lib/model/validation/props.ts
function optional(rule) {
  return (value, name) => value === void 0 ? [] : rule(value, name);
}
function propsProblems(props, spec, options = {}) {
  const what = options.what ?? "props";
  const given = props === void 0 ? {} : props;
  if (typeof given !== "object" || given === null || Array.isArray(given))
    return unknownKeyProblems(given, [], what);
  const values = given;
  const rules = spec;
  const shape = options.otherKeysAllowed ? [] : unknownKeyProblems(values, Object.keys(rules), what);
  return [
    ...shape,
    ...Object.keys(rules).flatMap((key) => rules[key](values[key], `${options.prefix ?? ""}${key}`))
  ];
}
var MAX_NESTING = 32;
function nestingProblems(value, name) {
  return nestedDeeperThanAllowed(value, 1) ? [`${name} is nested more than ${MAX_NESTING} levels deep; give the object as Kubernetes defines it`] : [];
}
function nestedDeeperThanAllowed(node, depth) {
  if (typeof node !== "object" || node === null) return false;
  if (depth > MAX_NESTING) return true;
  for (const child of Object.values(node)) if (nestedDeeperThanAllowed(child, depth + 1)) return true;
  return false;
}
function required(rule, hint) {
  return (value, name) => value === void 0 || value === null ? [`${name} is required; pass ${hint}`] : rule(value, name);
}
var Rules = {
  /** A whole number in range: replicas, workers, sizes anything is built from. */
  count: (range) => optional((value, name) => rangeProblems(name, value, range)),
  /** A finite number in range, fractions allowed. */
  number: (range) => optional((value, name) => rangeProblems(name, value, { ...range, integer: false })),
  /** A port, 1–65535. */
  port: () => optional((value, name) => portProblems(value, name)),
  /** `true` or `false`. */
  bool: () => optional(
    (value, name) => typeof value === "boolean" ? [] : [`${name} must be true or false, got ${shown(value)}`]
  ),
  /** Text on one line (it may end up in a rendered file). */
  text: () => optional((value, name) => singleLineProblems(value, name)),
  /** Text on one line that is not empty. */
  nonEmptyText: () => optional(
    (value, name) => value === "" ? [`${name} is empty; give a value`] : singleLineProblems(value, name)
  ),
  /** A DNS-1123 label, at most `maxLength` long (names derived from it need the rest). */
  dnsLabel: (maxLength = 63) => optional((value, name) => dnsLabelProblems(value, name, maxLength)),
  /** A DNS-1123 subdomain (Secret, ConfigMap, StorageClass names). */
  dnsSubdomain: () => optional((value, name) => dnsSubdomainProblems(value, name)),
  /** A Kubernetes quantity such as `10Gi`. */
  quantity: () => optional((value, name) => quantityProblems(value, name)),
  /** A container image reference. */
  image: () => optional((value, name) => imageProblems(value, name)),
  /** An image tag, e.g. a release `2025.1`. */
  imageTag: () => optional((value, name) => imageTagProblems(value, name)),
  /** Labels (keys and values by Kubernetes' rules). */
  labels: () => optional((value, name) => labelsProblems(value, name)),
  /** One of a fixed set of values. */
  oneOf: (...allowed) => optional(
    (value, name) => allowed.includes(value) ? [] : [`${name} must be one of ${allowed.map((a) => shown(a)).join(", ")}, got ${shown(value)}`]
  ),
  /** A nested options object, held to its own spec. */
  object: (spec) => optional((value, name) => propsProblems(value, spec, { what: name, prefix: `${name}.` })),
  /** A list whose items each satisfy `item`, with at most `max` items (counted before the items are read). */
  list: (item, options = {}) => optional((value, name) => {
    if (!Array.isArray(value)) return [`${name} must be a list, got ${shown(value)}`];
    if (options.max !== void 0 && value.length > options.max)
      return [`${name} has ${value.length} items; give at most ${options.max}`];
    if (options.min !== void 0 && value.length < options.min)
      return [`${name} has ${value.length} items; give at least ${options.min}`];
    return value.flatMap((v, i) => item(v, `${name}[${i}]`));
  }),
  /** An object used as a map (environment, Secret references): every key by `key`, every value by `value`. */
  record: (value, key = () => []) => optional(
    (given, name) => typeof given !== "object" || given === null || Array.isArray(given) ? [`${name} must be an object, got ${shown(given)}`] : Object.entries(given).flatMap(([k, v]) => [...key(k, `${name} key`), ...value(v, `${name}.${k}`)])
  ),
  /**
   * Kubernetes objects typed by the caller and passed through as they are (EnvVars, Volumes,
   * PolicyRules): a list of objects, nested at most {@link MAX_NESTING} deep, so that what copies
   * and renders them cannot run out of stack.
   */
  kubernetesObjects: () => optional((value, name) => {
    if (!Array.isArray(value)) return [`${name} must be a list of Kubernetes objects, got ${shown(value)}`];
    return value.flatMap(
      (item, i) => typeof item !== "object" || item === null || Array.isArray(item) ? [`${name}[${i}] must be an object, got ${shown(item)}`] : nestingProblems(item, `${name}[${i}]`)
    );
  }),
  /** Either of two rules (a count or a list of cells): `pick` chooses by the value. */
  either: (pick2, whenTrue, otherwise) => optional((value, name) => pick2(value) ? whenTrue(value, name) : otherwise(value, name)),
  /** A custom check of a given value. */
  given: (rule) => optional(rule),
  /**
   * A known key whose value another check holds (input services by `requireInputs`, oslo.config
   * options by their schema at synthesis).
   */
  checkedElsewhere: () => () => []
};

// lib/model/validation/placement.ts
var schedulingKeyRule = (value, name) => typeof value === "string" && isSchedulingKey(value) ? [] : [
  `${name} ${shown(value)} is not a Yaook scheduling key; use one of SchedulingKey, e.g. SchedulingKey.ANY_API`
];
var nodeLabels = Rules.given((value, name) => [
  ...Rules.labels()(value, name),
  ...typeof value === "object" && value !== null ? reservedNodeLabelProblems(Object.keys(value), name) : []
]);
var PLACEMENT = {
  keys: required(
    Rules.list(schedulingKeyRule, { min: 1 }),
    "at least one SchedulingKey: build it with placement(key, ...groups)"
  ),
  requiredLabels: required(nodeLabels, "an object of label: value ({} for none)"),
  nodeSelector: required(nodeLabels, "an object of label: value ({} for none)")
};
var placementRule = Rules.object(PLACEMENT);

// lib/model/validation/reserved-namespace.ts
var RESERVED_NAMESPACES = [
  "default",
  "kube-system",
  "kube-public",
  "kube-node-lease"
];
function reservedNamespaceProblems(namespace, allowed) {
  if (allowed || typeof namespace !== "string" || !RESERVED_NAMESPACES.includes(namespace)) return [];
  return [
    `namespace "${namespace}" is reserved for the cluster's own objects; use a namespace of the cloud's own (e.g. 'openstack'), or pass allowReservedNamespace: true to mean it`
  ];
}

// lib/model/validation/secret-material.ts
var URL_USERINFO = /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/([^\s/?#@:]*):([^\s/?#@]+)@/g;
var SUBSTITUTION = /^(?:\$\([A-Za-z_][A-Za-z0-9_]*\)|\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*)$/;
var PASSWORD_NAME = /(?:^|[_.-])pass(?:word|wd)$/i;
function urlsWithPassword(text) {
  const found = [];
  for (const match of text.matchAll(URL_USERINFO)) {
    if (!isSubstitution(match[2])) found.push(match[0].replace(`:${match[2]}@`, ":****@"));
  }
  return found;
}
function isPasswordName(name) {
  return PASSWORD_NAME.test(name);
}
function isSubstitution(value) {
  return SUBSTITUTION.test(value);
}

// lib/model/cloud.ts
var CLOUD_PROPS = {
  namespace: required(Rules.dnsLabel(), "the namespace of the cloud's objects, e.g. 'openstack'"),
  release: Rules.given(releaseProblems),
  imageRegistry: Rules.image(),
  toolboxImage: Rules.image(),
  labels: Rules.given(commonLabelsProblems),
  createNamespace: Rules.bool(),
  allowReservedNamespace: Rules.bool(),
  agentNamespace: Rules.dnsLabel(),
  clusterDomain: Rules.dnsSubdomain()
};
var Cloud = class _Cloud extends import_cdk8s5.Chart {
  /** The cloud a construct belongs to; throws with the path when it is not inside one. */
  static of(scope) {
    const cloud = closest(scope, CLOUD_MARKER);
    if (!cloud)
      throw new Error(
        `[${scope.node.path}] is not inside a Cloud; create it with a Cloud (or its child) as scope`
      );
    return cloud;
  }
  cloudName;
  /** The control plane's namespace (Pod Security `restricted`). */
  namespace;
  /** The node agents' namespace (Pod Security `privileged`); see {@link Cloud.addNodeAgent}. */
  agentNamespace;
  release;
  imageRegistry;
  toolboxImage;
  /** The cluster's DNS domain. */
  clusterDomain;
  createNamespace;
  nodeAgents = /* @__PURE__ */ new Set();
  _plan;
  _walked;
  constructor(scope, id, props) {
    super(scope, freeConstructId(scope, id), {
      namespace: props?.namespace,
      labels: props?.labels,
      disableResourceNameHashes: true
    });
    mark(this, CLOUD_MARKER);
    reportUncaughtInputErrors();
    assertNoProblems(this, [
      ...dnsLabelProblems(id, "cloud id"),
      ...propsProblems(props, CLOUD_PROPS),
      ...reservedNamespaceProblems(props?.namespace, props?.allowReservedNamespace ?? false),
      ...agentNamespaceProblems(props)
    ]);
    this.cloudName = id;
    this.namespace = props.namespace;
    this.agentNamespace = props.agentNamespace ?? defaultAgentNamespace(props.namespace);
    this.release = props.release ?? DEFAULT_RELEASE;
    this.imageRegistry = props.imageRegistry ?? "registry.yaook.cloud/yaook";
    this.toolboxImage = props.toolboxImage ?? "docker.io/bitnami/kubectl:1.36";
    this.clusterDomain = props.clusterDomain ?? "cluster.local";
    this.createNamespace = props.createNamespace ?? true;
    if (this.createNamespace) {
      new JsonApiObject(this, "namespace", import_cdk8s_plus_33.k8s.KubeNamespace, {
        metadata: { name: props.namespace, labels: podSecurityLabels("restricted") }
      });
    }
    addCheck(this, () => this.problems());
  }
  /**
   * Declares `component` a node agent: its pods need the host, which the control plane's namespace
   * refuses, so its namespaced objects go to {@link agentNamespace} (created with the first agent).
   * `podTemplate` calls it for every pod that needs the host: the decision follows from the pod,
   * never from a list of services. Whatever the agent's pods mount must be in that namespace too.
   */
  addNodeAgent(component) {
    if (_Cloud.of(component) !== this)
      throw new Error(
        `[${component.node.path}] is not a component of cloud ${this.cloudName}; add it to its own cloud`
      );
    if (this.nodeAgents.size === 0 && this.createNamespace) {
      new JsonApiObject(this, "agent-namespace", import_cdk8s_plus_33.k8s.KubeNamespace, {
        metadata: { name: this.agentNamespace, labels: podSecurityLabels("privileged") }
      });
    }
    this.nodeAgents.add(component);
    modelChanged();
  }
  /** True when `component` is a node agent (see {@link addNodeAgent}). */
  isNodeAgent(component) {
    return this.nodeAgents.has(component);
  }
  /** The namespace `component`'s namespaced objects go to: the agents' or the control plane's. */
  namespaceOf(component) {
    return this.nodeAgents.has(component) ? this.agentNamespace : this.namespace;
  }
  /**
   * The DNS name of a Service of the control plane (`keystone-api`), or of a member of one
   * (`memcached-0.memcached`): `<name>.<namespace>.svc`, which resolves from either of the cloud's
   * namespaces (a bare name resolves only in its own), so node agents reach the control plane by it.
   */
  serviceHost(name) {
    return `${name}.${this.namespace}.svc`;
  }
  /**
   * The fully qualified DNS name of a Service of the control plane or of a member of one
   * (`ovsdb-sb-0.ovsdb-sb-peers.<namespace>.svc.<clusterDomain>`), for resolvers that do not apply
   * the pod's search list (libunbound in Open vSwitch and OVN).
   */
  serviceFqdn(name) {
    return `${this.serviceHost(name)}.${this.clusterDomain}`;
  }
  /** `<registry>/<name>:<release>`, or the given tag. */
  image(name, tag = this.release) {
    return `${this.imageRegistry}/${name}:${tag}`;
  }
  /** Every component of the cloud, enabled or not, in tree order. */
  get components() {
    return [...this.walked().components];
  }
  /** The enabled components in deployment order (gating dependencies first, ties by name). */
  get orderedComponents() {
    return [...this.plan().ordered];
  }
  /**
   * What this synthesis reads of the cloud (components, resolved edges, consumers, placement,
   * object keys), computed once and built again only when the model changed since.
   */
  plan() {
    const generation2 = modelGeneration();
    if (this._plan?.generation !== generation2)
      this._plan = new SynthesisPlan(this, generation2, this.walked());
    return this._plan;
  }
  /** The cloud's subtree walked once per model generation (the plan's input; `components` reads it). */
  walked() {
    const generation2 = modelGeneration();
    if (this._walked?.generation !== generation2) this._walked = { generation: generation2, ...walkCloud(this) };
    return this._walked;
  }
  /**
   * Every object created in the cloud's chart reads its labels (cdk8s' `ApiObject` constructor does):
   * the one place that sees an object being added, which changes what the synthesis plan holds.
   */
  get labels() {
    modelChanged();
    return super.labels;
  }
  /**
   * Renders the cloud: validates this cloud's subtree, adds every object's component labels and
   * graph annotations, drops disabled components, and orders the result. `app.synth()` calls this
   * after validating the app. Rendering works on the rendered copies: the construct tree is left as
   * it was.
   *
   * cdk8s' own `Chart.toJson()` re-validates the whole App for every chart, which makes an App with
   * N clouds cost N+1 validations of everything (measured in bench/synth); validating only the
   * cloud's own subtree keeps synthesis linear and still fails `Testing.synth(cloud)` on bad input.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- cdk8s' own signature
  toJson() {
    const subtree = this.node.findAll();
    if (this._plan && this._plan.constructCount !== subtree.length) this._plan = this._walked = void 0;
    const plan = this.plan();
    assertValid(subtree);
    const position = new Map(plan.ordered.map((c, i) => [c.componentName, i]));
    const rendered = plan.objects.filter(({ object, rendered: rendered2 }) => rendered2 && import_cdk8s5.Chart.of(object) === this).map(({ object, component, namespace }) => {
      const json2 = object.toJson();
      json2.metadata = withMetadata(json2.metadata, plan.metadataOf(component));
      return inNamespace(json2, namespace);
    });
    return rendered.map((o, index) => ({ o, index })).sort((a, b) => compareObjects(a.o, b.o, position) || a.index - b.index).map(({ o }) => o);
  }
  problems() {
    const plan = this.plan();
    const problems = [];
    const byName2 = /* @__PURE__ */ new Map();
    for (const c of plan.components) byName2.set(c.componentName, [...byName2.get(c.componentName) ?? [], c]);
    for (const [name, same] of byName2) {
      if (same.length > 1) {
        problems.push(
          `duplicate component name "${name}" at ${same.map((c) => c.node.path).join(" and ")}; give one of them another id or a \`name\``
        );
      }
    }
    for (const c of plan.components) {
      for (const e of plan.edgesOf(c)) {
        if (_Cloud.of(e.target) !== this) {
          problems.push(
            `${c.node.path} depends on ${e.target.node.path}, which belongs to another cloud; pass an external endpoint instead`
          );
        }
      }
    }
    const cycle = findCycle(
      plan.enabled.map((c) => c.componentName),
      plan.namedEdges(plan.enabled)
    );
    if (cycle) {
      const paths = cycle.map((name) => byName2.get(name)?.[0]?.node.path ?? name);
      problems.push(
        `dependency cycle: ${cycle.join(" -> ")} (${paths.join(" -> ")}); remove one of these dependencies or make it a 'runtime' edge`
      );
    }
    const rendered = plan.objects.filter((o) => o.rendered);
    problems.push(
      ...duplicateObjectProblems(rendered),
      ...this.sharedObjectProblems(rendered),
      ...strayObjectProblems(this, plan.objects)
    );
    return problems;
  }
  /**
   * Objects another cloud of the same scope renders too (same namespace, or cluster-scoped): the
   * two deploys would overwrite each other. Reported by the later cloud only. Reads one index of
   * the sibling clouds' objects per model generation, so the check is linear in the clouds.
   */
  sharedObjectProblems(rendered) {
    const scope = this.node.scope;
    if (!scope) return [];
    const index = siblingIndex(scope);
    const me = index.clouds.indexOf(this);
    const shared = [];
    for (const { key, object: mine } of rendered) {
      for (const { cloud: other, at, object, namespace } of index.byKey.get(key) ?? []) {
        if (other >= me) break;
        const where = namespace === void 0 ? "(cluster-scoped)" : `in namespace "${namespace}"`;
        shared.push({
          other,
          at,
          problem: `${object.kind} "${object.name}" ${where} is rendered by cloud ${index.clouds[other].cloudName} (${object.node.path}) and by this cloud (${mine.node.path}); the deploys would overwrite each other: give each cloud its own namespace` + (object.kind === "Namespace" ? ", or pass createNamespace: false to the cloud that shares it" : "")
        });
      }
    }
    return shared.sort((a, b) => a.other - b.other || a.at - b.at).map((s) => s.problem);
  }
};
var siblingIndexes = /* @__PURE__ */ new WeakMap();
function siblingIndex(scope) {
  const generation2 = modelGeneration();
  const cached = siblingIndexes.get(scope);
  if (cached?.generation === generation2) return cached;
  const clouds = scope.node.children.filter((c) => hasMarker(c, CLOUD_MARKER));
  const byKey = /* @__PURE__ */ new Map();
  clouds.forEach((cloud, position) => {
    const seen = /* @__PURE__ */ new Set();
    cloud.plan().objects.filter((o) => o.rendered).forEach(({ key, object, namespace }, at) => {
      if (seen.has(key)) return;
      seen.add(key);
      const list = byKey.get(key);
      const entry = { cloud: position, at, object, namespace };
      if (list) list.push(entry);
      else byKey.set(key, [entry]);
    });
  });
  const index = { generation: generation2, clouds, byKey };
  siblingIndexes.set(scope, index);
  return index;
}
function duplicateObjectProblems(rendered) {
  const seen = /* @__PURE__ */ new Map();
  const problems = [];
  for (const { key, object } of rendered) {
    const previous = seen.get(key);
    if (previous) {
      problems.push(
        `${object.kind} "${object.name}" is defined twice, at ${previous} and ${object.node.path}; rename one`
      );
    } else seen.set(key, object.node.path);
  }
  return problems;
}
function withMetadata(metadata, added) {
  return sortedKeys({
    ...metadata,
    labels: merged(metadata.labels, added.labels),
    annotations: merged(metadata.annotations, added.annotations)
  });
}
function merged(rendered, added) {
  const keys = rendered ? Object.keys(rendered) : [];
  if (!isSorted(keys)) return sortedKeys({ ...rendered, ...Object.fromEntries(added) });
  const result = {};
  let i = 0;
  for (const [key, value] of added) {
    while (i < keys.length && keys[i] < key)
      result[keys[i]] = rendered[keys[i++]];
    if (keys[i] === key) i++;
    result[key] = value;
  }
  for (; i < keys.length; i++) result[keys[i]] = rendered[keys[i]];
  return result;
}
function isSorted(keys) {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1] > keys[i]) return false;
  return true;
}
function sortedKeys(object) {
  const sorted = {};
  for (const key of Object.keys(object).sort()) sorted[key] = object[key];
  return sorted;
}
function inNamespace(object, namespace) {
  if (namespace === void 0) delete object.metadata.namespace;
  else object.metadata.namespace = namespace;
  return object;
}
function defaultAgentNamespace(namespace) {
  return `${namespace}-agents`;
}
function agentNamespaceProblems(props) {
  if (typeof props?.namespace !== "string") return [];
  if (props.agentNamespace === void 0) {
    const name = defaultAgentNamespace(props.namespace);
    return dnsLabelProblems(name, "agentNamespace").length === 0 ? [] : [
      `the default agentNamespace "${name}" is longer than 63 characters; pass a shorter agentNamespace (or a shorter namespace)`
    ];
  }
  if (typeof props.agentNamespace !== "string") return [];
  if (props.agentNamespace === props.namespace)
    return [
      `agentNamespace "${props.agentNamespace}" is the control plane's namespace; node agents need a namespace of their own (Pod Security 'privileged' there, 'restricted' in namespace): pass another name, e.g. '${defaultAgentNamespace(props.namespace)}'`
    ];
  return reservedNamespaceProblems(props.agentNamespace, props.allowReservedNamespace ?? false).map(
    (p) => p.replace(/^namespace/, "agentNamespace")
  );
}
function assertValid(subtree) {
  const errors = subtree.flatMap((c) => c.node.validate().map((message) => `[${c.node.path}] ${message}`));
  if (errors.length > 0)
    throw new Error(`Validation failed with the following errors:
  ${errors.join("\n  ")}`);
}
function compareObjects(a, b, position) {
  const pa = position.get(a.metadata.annotations?.[Annotations.COMPONENT] ?? "") ?? -1;
  const pb = position.get(b.metadata.annotations?.[Annotations.COMPONENT] ?? "") ?? -1;
  return pa - pb || kindFacts(a).rank - kindFacts(b).rank || byName.compare(a.metadata.name, b.metadata.name);
}
var byName = new Intl.Collator();

// lib/model/component.ts
var import_cdk8s6 = require("cdk8s");
var import_constructs = require("constructs");
var COMPONENT_PROPS = {
  placement: placementRule,
  name: Rules.dnsLabel(),
  enabled: Rules.bool()
};
function isDependable(x) {
  return typeof x === "object" && x !== null && "dependencyTargets" in x;
}
var Component = class _Component extends import_constructs.Construct {
  /** True when `x` is a Component (works across package copies). */
  static isComponent(x) {
    return hasMarker(x, COMPONENT_MARKER);
  }
  /** The components in a construct subtree, in tree order. */
  static allIn(scope) {
    return scope.node.findAll().filter((c) => _Component.isComponent(c));
  }
  componentName;
  placement;
  /** The service this component belongs to, when it is inside one. */
  service;
  _enabled;
  declaredEdges = [];
  constructor(scope, id, props = {}) {
    super(scope, freeConstructId(scope, id));
    assertNoProblems(
      this,
      propsProblems(props, COMPONENT_PROPS, { otherKeysAllowed: new.target !== _Component })
    );
    mark(this, COMPONENT_MARKER);
    modelChanged();
    this.service = closest(scope, SERVICE_MARKER);
    const prefix = this.service?.serviceName;
    this.componentName = props.name ?? (prefix ? id === "default" ? prefix : `${prefix}-${id}` : id);
    assertNoProblems(this, dnsLabelProblems(this.componentName, "component name"));
    this.placement = props.placement;
    this._enabled = props.enabled ?? true;
    addCheck(this, () => this.problems());
  }
  get enabled() {
    return this._enabled && (this.service?.enabled ?? true);
  }
  get dependencyTargets() {
    return [this];
  }
  /** The name of the service this component reports under (itself when it has no service). */
  get serviceName() {
    return this.service?.serviceName ?? this.componentName;
  }
  /** The component's short role inside its service (`api`, `db-sync`; `server` for a service's only component), used as a label. */
  get role() {
    return this.node.id === "default" ? "server" : this.node.id;
  }
  /** Turns the component off: it synthesises nothing, and gating dependencies on it fail validation. */
  disable() {
    this._enabled = false;
    modelChanged();
  }
  /**
   * Declares that this component needs `target` (a component, a service, or external infrastructure).
   * @param kind `ready` (default), `completed` (a Job that must succeed), `same-node`, or `runtime` (soft).
   */
  dependsOn(target, kind = "ready") {
    const problems = this.edgeProblems(target, kind);
    if (problems.length > 0) throw new ValidationError(this.node.path, problems);
    this.declaredEdges.push({ target, kind });
    modelChanged();
    return this;
  }
  /** Why `dependsOn(target, kind)` cannot be declared: not a dependable, an unknown kind, itself. */
  edgeProblems(target, kind) {
    if (!isDependable(target)) {
      return [
        `dependsOn(${describe(target)}): the target is not a component, a service or an external endpoint; pass one of those`
      ];
    }
    const problems = [];
    if (typeof kind !== "string" || !isEdgeKind(kind))
      problems.push(`dependsOn: unknown edge kind ${shown(kind)}; use one of ${EDGE_KINDS.join(", ")}`);
    if (import_constructs.Construct.isConstruct(target) && target.dependencyTargets.includes(this))
      problems.push(
        `dependsOn: ${this.componentName} cannot depend on itself${target === this ? "" : ` (through ${target.node?.path ?? "its target"})`}; remove the dependency`
      );
    return problems;
  }
  /**
   * The edges, resolved to components, without duplicates (the strongest declaration wins): read
   * from the cloud's synthesis plan, which resolves every component's edges once.
   */
  get edges() {
    const cloud = closest(this, CLOUD_MARKER);
    const plan = cloud?.plan();
    return plan?.has(this) ? [...plan.edgesOf(this)] : this._resolveEdges();
  }
  /**
   * Resolves the declared edges to components (the synthesis plan calls it once per component).
   * @internal
   */
  _resolveEdges() {
    const byTarget = /* @__PURE__ */ new Map();
    for (const { target, kind } of this.declaredEdges) {
      const targets = target.dependencyTargets;
      if (!Array.isArray(targets))
        throw new ValidationError(this.node.path, [
          `dependsOn: the target's dependencyTargets is ${shown(targets)}, not a list of components; return an array (empty for external infrastructure)`
        ]);
      for (const component of targets) {
        if (component === this) continue;
        const previous = byTarget.get(component);
        if (previous === void 0 || previous === "runtime") byTarget.set(component, kind);
      }
    }
    return [...byTarget.entries()].map(([target, kind]) => ({ target, kind }));
  }
  /** The Kubernetes objects this component owns (its subtree, excluding nested components). */
  get apiObjects() {
    const objects = [];
    const walk = (scope) => {
      for (const child of scope.node.children) {
        if (_Component.isComponent(child)) continue;
        if (child instanceof import_cdk8s6.ApiObject) objects.push(child);
        walk(child);
      }
    };
    walk(this);
    return objects;
  }
  /** Labels that select this component's pods; stable across releases. */
  get selectorLabels() {
    return {
      "app.kubernetes.io/instance": this.serviceName,
      "app.kubernetes.io/component": this.role
    };
  }
  problems() {
    const problems = [];
    for (const edge of this.edges) {
      if (!edge.target.enabled && edge.kind !== "runtime") {
        problems.push(
          `depends on ${edge.target.componentName} (${edge.kind}), which is disabled; enable ${edge.target.node.path} or remove the dependency`
        );
      }
    }
    return problems;
  }
};
function describe(value) {
  if (typeof value === "object" && value !== null) return value.constructor?.name ?? "object";
  return JSON.stringify(value) ?? String(value);
}

// lib/model/service.ts
var import_constructs2 = require("constructs");
var SERVICE_PROPS = {
  enabled: Rules.bool(),
  appName: Rules.dnsLabel()
};
var Service = class extends import_constructs2.Construct {
  static isService(x) {
    return hasMarker(x, SERVICE_MARKER);
  }
  /**
   * The name the objects built in `scope` are named after: the service's it is part of (the closest
   * service at or above it, however deep), else the scope's own id.
   */
  static nameFor(scope) {
    return closest(scope, SERVICE_MARKER)?.serviceName ?? scope.node.id;
  }
  /** The service's name: the construct id. Component and object names start with it. */
  serviceName;
  /** The `app.kubernetes.io/name` label of the service's objects. */
  appName;
  _enabled;
  constructor(scope, id, props = {}) {
    super(scope, freeConstructId(scope, id));
    mark(this, SERVICE_MARKER);
    assertNoProblems(this, [
      ...dnsLabelProblems(id, "service name", 40),
      ...propsProblems(props, SERVICE_PROPS)
    ]);
    this.serviceName = id;
    this.appName = props.appName ?? id;
    this._enabled = props.enabled ?? true;
  }
  get enabled() {
    return this._enabled;
  }
  get dependencyTargets() {
    return this.entryPoints;
  }
  /** Every component of this service, in tree order. */
  get components() {
    return Component.allIn(this);
  }
};

// constructs/kube/building-block-rules.ts
var dataKeyRule = Rules.given(
  (value, name) => typeof value === "string" && /^[-._a-zA-Z0-9]{1,253}$/.test(value) ? [] : [
    `${name} ${shown(value)} is not a key of a Secret or ConfigMap; use letters, digits, '-', '_' and '.'`
  ]
);
var SECRET_REF = {
  secretName: required(Rules.dnsSubdomain(), "the Secret's name"),
  key: required(dataKeyRule, "the key inside the Secret")
};
var secretRefRule = Rules.object(SECRET_REF);
var commandRule = required(
  Rules.list(
    Rules.given(
      (value, name) => typeof value === "string" ? [] : [`${name} must be a string, got ${shown(value)}`]
    ),
    { min: 1 }
  ),
  "the command as a list of strings, e.g. ['keystone-manage', 'db_sync']"
);
var envNameRule = Rules.given(
  (value, name) => typeof value === "string" && /^[-._a-zA-Z][-._a-zA-Z0-9]*$/.test(value) ? [] : [
    `${name} ${shown(value)} is not an environment variable name; use letters, digits, '_', '-' and '.', not starting with a digit`
  ]
);
var requestsRule = Rules.object({
  cpu: required(Rules.quantity(), "a CPU quantity, e.g. '100m'"),
  memory: required(
    Rules.given(
      (value, name) => typeof value === "string" && /^\d+(Ki|Mi|Gi|Ti)?$/.test(value) ? [] : [
        `${name} ${shown(value)} must be a whole number with an optional binary suffix (the limit is four times it), e.g. '256Mi'`
      ]
    ),
    "a memory quantity, e.g. '256Mi'"
  )
});
var configFilesRule = Rules.given((value, name) => {
  const config = value;
  if (typeof config !== "object" || config === null)
    return [`${name} must be { mountPath, files }, got ${shown(value)}`];
  return [
    ...typeof config.mountPath === "string" && config.mountPath.startsWith("/") ? [] : [`${name}.mountPath ${shown(config.mountPath)} must be an absolute path, e.g. '/etc/keystone'`],
    ...Rules.record(
      Rules.given((text, at) => {
        if (typeof text !== "string") return [`${at} must be the file's text`];
        const urls = urlsWithPassword(text);
        return urls.length === 0 ? [] : [
          `${at} holds a password in plain text (${urls.join(", ")}), which would be rendered into a ConfigMap; keep it out of the file: give it to the pod from a Secret with envFromSecret(NAME, { secretName, key }) (constructs/kube/secret-ref.ts) and have the service read the variable`
        ];
      }),
      dataKeyRule
    )(config.files, `${name}.files`)
  ];
});
var healthPathRule = required(
  Rules.given(
    (value, name) => typeof value === "string" && /^\/\S*$/.test(value) ? [] : [`${name} ${shown(value)} must be an HTTP path such as '/healthcheck'`]
  ),
  "the health check's HTTP path, e.g. '/healthcheck'"
);

// constructs/kube/job-component.ts
var import_cdk8s_plus_336 = require("cdk8s-plus-33");

// constructs/kube/job-identity.ts
var import_cdk8s_plus_332 = require("cdk8s-plus-33");
function jobIdentity(component, rules) {
  const name = component.componentName;
  const metadata = { name };
  new JsonApiObject(component, "service-account", import_cdk8s_plus_332.k8s.KubeServiceAccount, {
    metadata,
    automountServiceAccountToken: false
  });
  new JsonApiObject(component, "role", import_cdk8s_plus_332.k8s.KubeRole, { metadata, rules: [...rules] });
  new JsonApiObject(component, "role-binding", import_cdk8s_plus_332.k8s.KubeRoleBinding, {
    metadata,
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name },
    subjects: [{ kind: "ServiceAccount", name, namespace: Cloud.of(component).namespace }]
  });
  return name;
}

// constructs/kube/job-name.ts
var import_crypto = require("crypto");
var MAX_JOB_NAME = 63;
function jobName(component, release, spec) {
  const hash = (0, import_crypto.createHash)("sha256").update(JSON.stringify(spec)).digest("hex").slice(0, 8);
  const suffix = `-${release.replace(/\./g, "-")}-${hash}`;
  const base = component.slice(0, MAX_JOB_NAME - suffix.length).replace(/-+$/, "");
  return `${base}${suffix}`;
}

// constructs/kube/memory-limit.ts
var import_cdk8s_plus_333 = require("cdk8s-plus-33");
function resourcesWithMemoryLimit(requests, memoryLimit) {
  return {
    requests: {
      cpu: import_cdk8s_plus_333.k8s.Quantity.fromString(requests.cpu),
      memory: import_cdk8s_plus_333.k8s.Quantity.fromString(requests.memory)
    },
    limits: { memory: import_cdk8s_plus_333.k8s.Quantity.fromString(memoryLimit) }
  };
}

// constructs/kube/network-policies.ts
var import_cdk8s7 = require("cdk8s");
var import_cdk8s_plus_334 = require("cdk8s-plus-33");
function denyIngressByDefault(cloud) {
  denyIngress(cloud, "default-deny-ingress", cloud.namespace);
}
function denyIngressToAgents(cloud) {
  denyIngress(cloud, "agent-default-deny-ingress", cloud.agentNamespace);
}
function denyIngress(cloud, id, namespace) {
  if (cloud.node.tryFindChild(id)) return;
  new JsonApiObject(cloud, id, import_cdk8s_plus_334.k8s.KubeNetworkPolicy, {
    metadata: { name: "default-deny-ingress", namespace },
    spec: { podSelector: {}, policyTypes: ["Ingress"] }
  });
}
function allowFromAnywhere(component, port) {
  allowIngress(component, [{ ports: tcpPorts([port]) }]);
}
function allowFromConsumers(component, clientPorts) {
  allowIngress(
    component,
    import_cdk8s7.Lazy.any({
      produce: () => {
        const cloud = Cloud.of(component);
        const consumers = consumersOf(component);
        const fromHost = consumers.some(inHostNetwork);
        const services = servicesOf(consumers);
        const agentPods = new Set(
          servicesOf(cloud.components.filter((c) => c.enabled && cloud.isNodeAgent(c) && !inHostNetwork(c)))
        );
        const peers = [
          ...services.map((s) => ({ podSelector: { matchLabels: { "app.kubernetes.io/instance": s } } })),
          ...services.filter((s) => agentPods.has(s)).map((s) => ({
            namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": cloud.agentNamespace } },
            podSelector: { matchLabels: { "app.kubernetes.io/instance": s } }
          }))
        ];
        return [
          { from: [{ podSelector: { matchLabels: component.selectorLabels } }] },
          ...peers.length > 0 ? [{ from: peers, ports: tcpPorts(clientPorts) }] : [],
          ...fromHost ? [{ ports: tcpPorts(clientPorts.slice(0, 1)) }] : []
        ];
      }
    })
  );
}
function allowIngress(component, ingress) {
  denyIngressByDefault(Cloud.of(component));
  new JsonApiObject(component, "network-policy", import_cdk8s_plus_334.k8s.KubeNetworkPolicy, {
    metadata: { name: component.componentName },
    spec: { podSelector: { matchLabels: component.selectorLabels }, policyTypes: ["Ingress"], ingress }
  });
}
function tcpPorts(ports) {
  return ports.map((port) => ({ protocol: "TCP", port: import_cdk8s_plus_334.k8s.IntOrString.fromNumber(port) }));
}
function consumersOf(component) {
  return Cloud.of(component).plan().consumersOf(component).filter((c) => c !== component);
}
function servicesOf(components) {
  return [...new Set(components.map((c) => c.serviceName))].sort();
}
function inHostNetwork(component) {
  return component.apiObjects.some((object) => {
    const manifest = JsonApiObject.isJsonApiObject(object) ? object.manifest : object.toJson();
    const spec = manifest.spec;
    return spec?.template?.spec?.hostNetwork === true;
  });
}

// constructs/kube/priority-classes.ts
var import_cdk8s_plus_335 = require("cdk8s-plus-33");
var CLASSES = {
  // Both below Kubernetes' own system-cluster-critical (2000000000) and system-node-critical.
  "node-agent": {
    value: 1e6,
    description: "Hypervisor and network agents: without them the node runs no instance."
  },
  "control-plane": {
    value: 1e5,
    description: "OpenStack APIs, workers and their databases, message bus and caches."
  }
};
function priorityClassName(cloud, priority) {
  const name = `${cloud.namespace}-${priority}`;
  const id = `priority-class-${priority}`;
  if (!cloud.node.tryFindChild(id)) {
    const { value, description } = CLASSES[priority];
    new JsonApiObject(cloud, id, import_cdk8s_plus_335.k8s.KubePriorityClass, { metadata: { name }, value, description });
  }
  return name;
}

// constructs/kube/pod-template.ts
var RESTRICTED_POD_SECURITY = {
  runAsNonRoot: true,
  runAsUser: 42424,
  runAsGroup: 42424,
  fsGroup: 42424,
  seccompProfile: { type: "RuntimeDefault" }
};
function podTemplate(component, options) {
  if (!component.placement) {
    throw new Error(
      `[${component.node.path}] owns pods but has no placement; pass \`placement\` to the component`
    );
  }
  if (needsTheHost(options)) {
    Cloud.of(component).addNodeAgent(component);
    denyIngressToAgents(Cloud.of(component));
  }
  const scheduling = podScheduling(component.placement, { forcedDownscale: options.forcedDownscale });
  const antiAffinity = options.spread === "preferred" ? {
    preferredDuringSchedulingIgnoredDuringExecution: [
      {
        weight: 100,
        podAffinityTerm: {
          topologyKey: "kubernetes.io/hostname",
          labelSelector: { matchLabels: component.selectorLabels }
        }
      }
    ]
  } : void 0;
  const evenSpread = options.spread === "even" ? [
    {
      maxSkew: 1,
      topologyKey: "kubernetes.io/hostname",
      whenUnsatisfiable: "DoNotSchedule",
      labelSelector: { matchLabels: component.selectorLabels }
    }
  ] : void 0;
  const priority = options.restartPolicy === void 0 ? priorityClassName(Cloud.of(component), options.hostAgent ? "node-agent" : "control-plane") : void 0;
  return {
    metadata: { labels: component.selectorLabels, annotations: options.annotations },
    spec: {
      affinity: { ...scheduling.affinity, podAntiAffinity: antiAffinity },
      tolerations: scheduling.tolerations.map((t) => ({ ...t })),
      topologySpreadConstraints: evenSpread,
      nodeSelector: scheduling.nodeSelector ? { ...scheduling.nodeSelector } : void 0,
      priorityClassName: priority,
      serviceAccountName: options.serviceAccountName,
      automountServiceAccountToken: options.serviceAccountName !== void 0,
      restartPolicy: options.restartPolicy,
      terminationGracePeriodSeconds: options.terminationGracePeriodSeconds,
      securityContext: options.hostAgent ? void 0 : RESTRICTED_POD_SECURITY,
      hostNetwork: options.hostAgent ? true : void 0,
      // A host-network pod otherwise resolves with the node's resolver, which knows no Service names.
      dnsPolicy: options.hostAgent ? "ClusterFirstWithHostNet" : void 0,
      hostPid: options.hostAgent ? true : void 0,
      initContainers: options.initContainers,
      containers: options.containers.map((c) => withContainerDefaults(c, options.hostAgent ?? false)),
      volumes: options.volumes
    }
  };
}
function needsTheHost(options) {
  return (options.hostAgent ?? false) || (options.volumes ?? []).some((v) => v.hostPath !== void 0);
}
function withContainerDefaults(container, hostAgent) {
  const securityContext = hostAgent ? { privileged: true } : { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"] } };
  return { imagePullPolicy: "IfNotPresent", securityContext, ...container };
}
function containerResources(requests) {
  return resourcesWithMemoryLimit(
    requests,
    requests.memory.replace(/^(\d+)/, (n) => String(Number(n) * 4))
  );
}

// constructs/kube/secret-ref.ts
function envFromSecret(name, ref) {
  return { name, valueFrom: { secretKeyRef: { name: ref.secretName, key: ref.key } } };
}

// constructs/kube/job-component.ts
var JOB_COMPONENT_PROPS = {
  name: Rules.checkedElsewhere(),
  // by Component
  enabled: Rules.checkedElsewhere(),
  operatorKey: required(
    schedulingKeyRule,
    "the operator key of the service, e.g. SchedulingKey.OPERATOR_KEYSTONE"
  ),
  image: required(Rules.image(), "the container image"),
  command: commandRule,
  env: Rules.record(
    Rules.given(
      (value, name) => typeof value === "string" ? [] : [`${name} must be a string, got ${shown(value)}`]
    ),
    envNameRule
  ),
  secretEnv: Rules.record(secretRefRule, envNameRule),
  extraEnv: Rules.kubernetesObjects(),
  volumes: Rules.kubernetesObjects(),
  volumeMounts: Rules.kubernetesObjects(),
  kubernetesAccess: Rules.kubernetesObjects(),
  backoffLimit: Rules.count({ min: 0, max: 100 }),
  deadlineSeconds: Rules.count({ min: 60, max: 86400 }),
  ttlSecondsAfterFinished: Rules.count({ min: 0, max: 2592e3 })
};
var JobComponent = class extends Component {
  job;
  constructor(scope, id, props) {
    const problems = propsProblems(props, JOB_COMPONENT_PROPS);
    if (problems.length > 0) throw new ValidationError(`${scope.node.path}/${id}`, problems);
    const placement2 = operatorJobPlacement(props.operatorKey);
    super(scope, id, { ...props, placement: placement2 });
    const backoffLimit = props.backoffLimit ?? 3;
    const deadlineSeconds = props.deadlineSeconds ?? 3600;
    const ttlSecondsAfterFinished = props.ttlSecondsAfterFinished ?? 86400;
    const env = [
      ...Object.entries(props.secretEnv ?? {}).map(([name, ref]) => envFromSecret(name, ref)),
      ...Object.entries(props.env ?? {}).map(([name, value]) => ({ name, value })),
      ...props.extraEnv ?? []
    ];
    const serviceAccountName = props.kubernetesAccess ? jobIdentity(this, props.kubernetesAccess) : void 0;
    const release = Cloud.of(this).release;
    const spec = {
      backoffLimit,
      activeDeadlineSeconds: deadlineSeconds,
      ttlSecondsAfterFinished,
      template: podTemplate(this, {
        restartPolicy: "Never",
        serviceAccountName,
        volumes: props.volumes,
        containers: [
          {
            name: "main",
            image: props.image,
            command: props.command,
            env: env.length > 0 ? env : void 0,
            volumeMounts: props.volumeMounts,
            resources: resourcesWithMemoryLimit({ cpu: "50m", memory: "64Mi" }, "512Mi")
          }
        ]
      })
    };
    this.job = new JsonApiObject(this, "job", import_cdk8s_plus_336.k8s.KubeJob, {
      metadata: { name: jobName(this.componentName, release, spec) },
      spec
    });
  }
};

// constructs/kube/generated-secret.ts
var GENERATORS = {
  hex: "openssl rand -hex 24",
  fernet: "openssl rand 32 | base64 | tr '+/' '-_'"
};
var GENERATED_SECRET_PROPS = {
  operatorKey: required(
    schedulingKeyRule,
    "the operator key of the service, e.g. SchedulingKey.OPERATOR_KEYSTONE"
  ),
  keys: required(Rules.list(dataKeyRule, { min: 1, max: 64 }), "the keys to generate, e.g. ['password']"),
  format: Rules.oneOf("hex", "fernet"),
  secretName: Rules.dnsSubdomain()
};
var GeneratedSecret = class extends JobComponent {
  secretName;
  keys;
  constructor(scope, id, props) {
    const problems = propsProblems(props, GENERATED_SECRET_PROPS);
    if (problems.length > 0) throw new ValidationError(`${scope.node.path}/${id}`, problems);
    const cloud = Cloud.of(scope);
    const secretName = props.secretName ?? `${scope.node.id}-${id}`;
    const generator = GENERATORS[props.format ?? "hex"];
    const fields = props.keys.map((key) => `"${key}":"%s"`).join(",");
    const values = props.keys.map(() => `"$(${generator})"`).join(" ");
    const manifest = `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"${secretName}"},"stringData":{${fields}}}`;
    super(scope, id, {
      operatorKey: props.operatorKey,
      image: cloud.toolboxImage,
      kubernetesAccess: [
        { apiGroups: [""], resources: ["secrets"], resourceNames: [secretName], verbs: ["get"] },
        // RBAC cannot narrow `create` by name (the name is not known when it is authorised):
        // see docs/security.md for what that leaves.
        { apiGroups: [""], resources: ["secrets"], verbs: ["create"] }
      ],
      command: [
        "/bin/sh",
        "-ec",
        [
          `kubectl get secret ${secretName} >/dev/null 2>&1 && exit 0`,
          `printf '${manifest}' ${values} | kubectl create -f -`
        ].join("\n")
      ]
    });
    this.secretName = secretName;
    this.keys = props.keys;
  }
  /** A reference to one generated key. */
  ref(key) {
    return { secretName: this.secretName, key };
  }
};

// constructs/infra/infra-service.ts
var InfraService = class extends Service {
  constructor(scope, id, options) {
    super(scope, id, { appName: options.appName });
    assertNoProblems(this, propsProblems(options.props, options.propsSpec));
  }
};
var ClusteredServer = class extends InfraService {
  server;
  constructor(scope, id, options) {
    super(scope, id, options);
    this.server = new Component(this, "default", { placement: options.placement });
  }
  /**
   * A Secret of random values generated in the cluster (administrator passwords, cookies), which
   * the server waits for.
   */
  generatedSecret(id, keys) {
    const secret = new GeneratedSecret(this, id, {
      operatorKey: SchedulingKey.OPERATOR_ANY,
      keys: [...keys]
    });
    this.server.dependsOn(secret, "completed");
    return secret;
  }
  get entryPoints() {
    return [this.server];
  }
};

// constructs/kube/clustered-stateful-set.ts
var import_cdk8s_plus_338 = require("cdk8s-plus-33");

// constructs/kube/disruption-budget.ts
var import_cdk8s_plus_337 = require("cdk8s-plus-33");
function disruptionBudget(component, replicas) {
  if (replicas <= 1) return;
  new JsonApiObject(component, "pdb", import_cdk8s_plus_337.k8s.KubePodDisruptionBudget, {
    metadata: { name: component.componentName },
    spec: {
      maxUnavailable: import_cdk8s_plus_337.k8s.IntOrString.fromNumber(1),
      selector: { matchLabels: component.selectorLabels }
    }
  });
}

// constructs/kube/clustered-stateful-set.ts
function quorumReplicas(max, why) {
  return Rules.given((value, name) => {
    const range = rangeProblems(name, value, { min: 1, max });
    if (range.length > 0) return range;
    const replicas = value;
    return replicas % 2 === 0 ? [`${name} must be odd ${why}, got ${replicas}; use ${replicas + 1}`] : [];
  });
}
var MAX_STATEFUL_SET_NAME = 52;
function clusterServiceName(component, services) {
  return services.peerPorts ? `${component.componentName}-peers` : component.componentName;
}
function clusterMemberHosts(component, services) {
  const name = component.componentName;
  const governing = clusterServiceName(component, services);
  return Array.from({ length: services.replicas }, (_, i) => `${name}-${i}.${governing}`);
}
function clusteredStatefulSet(component, props) {
  const name = component.componentName;
  assertNoProblems(
    component,
    dnsLabelProblems(name, "the StatefulSet name (the component name)", MAX_STATEFUL_SET_NAME)
  );
  const selector = component.selectorLabels;
  if (props.peerPorts) {
    new JsonApiObject(component, "peers", import_cdk8s_plus_338.k8s.KubeService, {
      metadata: { name: clusterServiceName(component, props) },
      spec: { clusterIp: "None", publishNotReadyAddresses: true, selector, ports: props.peerPorts }
    });
  }
  const clientSelector = props.clientMember === void 0 ? selector : { ...selector, "statefulset.kubernetes.io/pod-name": `${name}-${props.clientMember}` };
  new JsonApiObject(component, "client", import_cdk8s_plus_338.k8s.KubeService, {
    metadata: { name },
    spec: {
      clusterIp: props.peerPorts ? void 0 : "None",
      selector: clientSelector,
      ports: props.clientPorts
    }
  });
  const storage = props.storage;
  const statefulSet = new JsonApiObject(component, "statefulset", import_cdk8s_plus_338.k8s.KubeStatefulSet, {
    metadata: { name },
    spec: {
      serviceName: clusterServiceName(component, props),
      replicas: props.replicas,
      podManagementPolicy: props.podManagementPolicy,
      selector: { matchLabels: selector },
      template: podTemplate(component, { ...props.pod, spread: props.spread }),
      volumeClaimTemplates: storage ? [
        {
          metadata: { name: "data" },
          spec: {
            accessModes: ["ReadWriteOnce"],
            storageClassName: storage.storageClassName,
            resources: { requests: { storage: import_cdk8s_plus_338.k8s.Quantity.fromString(storage.size) } }
          }
        }
      ] : void 0
    }
  });
  disruptionBudget(component, props.replicas);
  allowFromConsumers(
    component,
    props.clientPorts.map((p) => p.port)
  );
  return statefulSet;
}
function memberProbes(probes) {
  return {
    startupProbe: { ...probes.alive, periodSeconds: 10, failureThreshold: probes.startupAttempts },
    readinessProbe: probes.ready,
    livenessProbe: { ...probes.alive, periodSeconds: 30, failureThreshold: 4 }
  };
}

// constructs/kube/config-files.ts
var import_crypto2 = require("crypto");
var import_cdk8s_plus_339 = require("cdk8s-plus-33");
function configFiles(component, directory, files) {
  const name = `${component.componentName}-config`;
  const data = Object.fromEntries(
    Object.keys(files).sort().map((f) => [f, files[f]])
  );
  const configMap = new JsonApiObject(component, "config", import_cdk8s_plus_339.k8s.KubeConfigMap, { metadata: { name }, data });
  return {
    configMap,
    volume: { name: "config", configMap: { name } },
    mount: { name: "config", mountPath: directory, readOnly: true },
    mounts: Object.keys(data).map((file) => ({
      name: "config",
      mountPath: `${directory}/${file}`,
      subPath: file,
      readOnly: true
    })),
    checksum: (0, import_crypto2.createHash)("sha256").update(JSON.stringify(data)).digest("hex").slice(0, 16)
  };
}
var CONFIG_CHECKSUM_ANNOTATION = "stackwright.io/config-checksum";

// constructs/kube/shell-word.ts
var SHELL_WORD = /^[A-Za-z0-9_.,:/@%+=-]+$/;
function shellWord(value, what) {
  const text = String(value);
  if (!SHELL_WORD.test(text))
    throw new Error(
      `${what} ${shown(text)} cannot be written into a shell script: use letters, digits and _ . , : / @ % + = -`
    );
  return text;
}

// constructs/infra/galera-scripts.ts
var MARIADB_CONFIG_DIR = "/etc/stackwright";
var MARIADB_VOLUME_DIR = "/var/lib/mysql";
var MARIADB_DATADIR = `${MARIADB_VOLUME_DIR}/data`;
var MARIADB_RUN_DIR = "/run/mysqld";
var MARIADB_CLIENT_CNF = `${MARIADB_RUN_DIR}/client.cnf`;
var GALERA_PROVIDER = "/usr/lib/galera/libgalera_smm.so";
var SST_USER = "sst";
var GALERA_PORT = 4567;
function mariadbConfig(member) {
  const galera = [
    "wsrep_on = ON",
    `wsrep_provider = ${GALERA_PROVIDER}`,
    `wsrep_cluster_address = gcomm://${member.hosts.map((h) => shellWord(h, "member host")).join(",")}`,
    `wsrep_cluster_name = ${shellWord(member.clusterName, "Galera cluster name")}`,
    "wsrep_sst_method = mariabackup",
    // Written by start.sh from the SST Secret: the credential is in no ConfigMap and on no argv.
    `!include ${MARIADB_RUN_DIR}/sst.cnf`
  ];
  return [
    "[mysqld]",
    `datadir = ${MARIADB_DATADIR}`,
    `socket = ${MARIADB_RUN_DIR}/mysqld.sock`,
    `pid_file = ${MARIADB_RUN_DIR}/mysqld.pid`,
    "tmpdir = /tmp",
    `port = ${member.port}`,
    // Clients are pods with changing addresses: resolving them only slows every connection.
    "skip_name_resolve = ON",
    "binlog_format = ROW",
    "default_storage_engine = InnoDB",
    "innodb_autoinc_lock_mode = 2",
    ...member.replicas > 1 ? galera : ["wsrep_on = OFF"],
    ""
  ].join("\n");
}
function mariadbStartScript(member) {
  const prelude = [
    "set -eu",
    "umask 077",
    `run=${MARIADB_RUN_DIR}`,
    `data=${MARIADB_DATADIR}`,
    `cnf=${MARIADB_CONFIG_DIR}/my.cnf`,
    'mkdir -p "$data"',
    // Hex passwords from the generated Secrets: nothing to quote in an option file.
    `printf '[client]\\nuser = root\\npassword = %s\\nsocket = %s\\n' "$MARIADB_ROOT_PASSWORD" "$run/mysqld.sock" >${MARIADB_CLIENT_CNF}`,
    `printf '[mysqld]\\nwsrep_sst_auth = ${SST_USER}:%s\\n' "$MARIADB_SST_PASSWORD" >"$run/sst.cnf"`,
    "",
    "# A fresh datadir: system tables, then the accounts, on a private server without networking.",
    "# Built beside the datadir and renamed when complete: an interrupted run starts over.",
    "initialise() {",
    '  echo "start.sh: initialising $data"',
    '  rm -rf "$data.init"',
    '  mariadb-install-db --no-defaults --datadir="$data.init" --auth-root-authentication-method=normal \\',
    "    --skip-test-db --skip-name-resolve >/dev/null",
    '  mariadbd --defaults-file="$cnf" --datadir="$data.init" --wsrep-provider=none --wsrep-on=OFF \\',
    '    --skip-networking --socket="$run/init.sock" &',
    "  init_pid=$!",
    "  tries=0",
    '  until mariadb-admin --no-defaults --socket="$run/init.sock" -uroot ping >/dev/null 2>&1; do',
    "    tries=$((tries + 1))",
    '    [ "$tries" -lt 120 ] || { echo "start.sh: the initialising server did not start" >&2; exit 1; }',
    "    sleep 1",
    "  done",
    '  mariadb --no-defaults --socket="$run/init.sock" -uroot <<SQL',
    "ALTER USER 'root'@'localhost' IDENTIFIED BY '$MARIADB_ROOT_PASSWORD';",
    "CREATE USER 'root'@'%' IDENTIFIED BY '$MARIADB_ROOT_PASSWORD';",
    "GRANT ALL PRIVILEGES ON *.* TO 'root'@'%' WITH GRANT OPTION;",
    `CREATE USER '${SST_USER}'@'localhost' IDENTIFIED BY '$MARIADB_SST_PASSWORD';`,
    `GRANT RELOAD, PROCESS, LOCK TABLES, BINLOG MONITOR ON *.* TO '${SST_USER}'@'localhost';`,
    "SQL",
    `  mariadb-admin --defaults-file=${MARIADB_CLIENT_CNF} --socket="$run/init.sock" shutdown`,
    '  wait "$init_pid"',
    '  rm -rf "$data"',
    '  mv "$data.init" "$data"',
    "}",
    ""
  ];
  if (member.replicas === 1) {
    return [
      ...prelude,
      '[ -d "$data/mysql" ] || initialise',
      'exec mariadbd --defaults-file="$cnf"',
      ""
    ].join("\n");
  }
  return [
    ...prelude,
    `peers="${member.hosts.map((h) => shellWord(h, "member host")).join(" ")}"`,
    'self_host() { [ "${1%%.*}" = "$HOSTNAME" ]; }',
    "",
    "# Some other member accepts connections on the Galera port (it runs, primary or not).",
    "peer_running() {",
    "  for peer in $peers; do",
    '    self_host "$peer" && continue',
    `    socat -u OPEN:/dev/null "TCP:$peer:${GALERA_PORT},connect-timeout=2" 2>/dev/null && return 0`,
    "  done",
    "  return 1",
    "}",
    "",
    "# Some other member belongs to a primary component.",
    "peer_primary() {",
    "  for peer in $peers; do",
    '    self_host "$peer" && continue',
    `    status=$(mariadb --defaults-file=${MARIADB_CLIENT_CNF} --protocol=tcp -h "$peer" -P ${member.port} \\`,
    `      --connect-timeout=3 -N -s -e "SHOW GLOBAL STATUS LIKE 'wsrep_cluster_status'" 2>/dev/null | cut -f2) || true`,
    '    [ "$status" = Primary ] && return 0',
    "  done",
    "  return 1",
    "}",
    "",
    "bootstrap=",
    'if [ ! -d "$data/mysql" ]; then',
    '  if [ "${HOSTNAME##*-}" = 0 ] && ! peer_running; then',
    '    echo "start.sh: bootstrap: member 0, empty datadir, no peer running: founding a new cluster"',
    "    initialise",
    "    bootstrap=yes",
    "  else",
    "    waited=0",
    "    until peer_primary; do",
    '      [ $((waited % 60)) -eq 0 ] && echo "start.sh: empty datadir, waiting for a primary component to join"',
    "      sleep 5",
    "      waited=$((waited + 5))",
    "    done",
    "  fi",
    `elif grep -q '^safe_to_bootstrap: *1' "$data/grastate.dat" 2>/dev/null && ! peer_primary; then`,
    '  echo "start.sh: bootstrap: last member to leave (safe_to_bootstrap: 1), no primary component: re-founding the cluster"',
    "  bootstrap=yes",
    "fi",
    'if [ -n "$bootstrap" ]; then',
    '  exec mariadbd --defaults-file="$cnf" --wsrep-node-name="$HOSTNAME" --wsrep-new-cluster',
    "fi",
    'exec mariadbd --defaults-file="$cnf" --wsrep-node-name="$HOSTNAME"',
    ""
  ].join("\n");
}
function mariadbReadyCommand(replicas) {
  const query = replicas > 1 ? "SELECT GROUP_CONCAT(VARIABLE_VALUE ORDER BY VARIABLE_NAME) FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME IN ('WSREP_LOCAL_STATE_COMMENT', 'WSREP_READY')" : "SELECT 1";
  const expected = replicas > 1 ? "Synced,ON" : "1";
  return [
    "/bin/sh",
    "-ec",
    `test "$(mariadb --defaults-file=${MARIADB_CLIENT_CNF} -N -s -e "${query}")" = ${expected}`
  ];
}
var MARIADB_ALIVE_COMMAND = ["mariadb-admin", `--defaults-file=${MARIADB_CLIENT_CNF}`, "ping"];

// constructs/infra/mariadb.ts
var PORT = 3306;
var MARIADB_PROPS = {
  replicas: quorumReplicas(9, "so Galera keeps a quorum"),
  storageSize: Rules.quantity(),
  storageClassName: Rules.dnsSubdomain(),
  image: Rules.image()
};
var MariaDB = class extends ClusteredServer {
  credentials;
  /** The password of the account mariadb-backup uses on a donor during a state transfer. */
  sstCredentials;
  host;
  clientImage;
  port = PORT;
  constructor(scope, id, props = {}) {
    super(scope, id, {
      appName: "mariadb",
      props,
      propsSpec: MARIADB_PROPS,
      placement: placement(SchedulingKey.INFRA_DATABASE, SchedulingKey.ANY_INFRA)
    });
    const cloud = Cloud.of(this);
    const replicas = props.replicas ?? 3;
    this.credentials = this.generatedSecret("credentials", ["password"]);
    this.sstCredentials = this.generatedSecret("sst-credentials", ["password"]);
    const name = this.server.componentName;
    this.host = cloud.serviceHost(name);
    this.clientImage = props.image ?? cloud.image("mariadb", "11.4");
    const services = {
      replicas,
      peerPorts: [
        { name: "mysql", port: PORT },
        { name: "galera", port: 4567 },
        { name: "ist", port: 4568 },
        { name: "sst", port: 4444 }
      ],
      clientPorts: [{ name: "mysql", port: PORT }]
    };
    const member = {
      replicas,
      hosts: clusterMemberHosts(this.server, services),
      clusterName: `${cloud.cloudName}-${name}`,
      port: PORT
    };
    const config = configFiles(this.server, MARIADB_CONFIG_DIR, {
      "my.cnf": mariadbConfig(member),
      "start.sh": mariadbStartScript(member)
    });
    const alive = { exec: { command: [...MARIADB_ALIVE_COMMAND] }, timeoutSeconds: 10 };
    clusteredStatefulSet(this.server, {
      ...services,
      // A majority must survive the loss of a node: one member per node.
      spread: "even",
      // Members decide for themselves whether to bootstrap or join (see start.sh), and after a crash
      // of every member Galera re-forms the cluster only once all of them run: OrderedReady would
      // wait for member 0 to be Synced before starting the member it needs.
      podManagementPolicy: "Parallel",
      // Galera certifies concurrent writes to the same rows on different members by aborting one of
      // them at commit, which OpenStack services do not retry: every client writes through member 0.
      clientMember: 0,
      storage: { size: props.storageSize ?? "10Gi", storageClassName: props.storageClassName },
      pod: {
        annotations: { [CONFIG_CHECKSUM_ANNOTATION]: config.checksum },
        volumes: [config.volume, { name: "run", emptyDir: {} }, { name: "tmp", emptyDir: {} }],
        containers: [
          {
            name: "mariadb",
            image: this.clientImage,
            command: ["/bin/sh", `${MARIADB_CONFIG_DIR}/start.sh`],
            ports: [{ name: "mysql", containerPort: PORT }],
            env: [
              envFromSecret("MARIADB_ROOT_PASSWORD", this.adminPassword),
              envFromSecret("MARIADB_SST_PASSWORD", this.sstCredentials.ref("password"))
            ],
            volumeMounts: [
              config.mount,
              { name: "data", mountPath: MARIADB_VOLUME_DIR },
              { name: "run", mountPath: MARIADB_RUN_DIR },
              { name: "tmp", mountPath: "/tmp" }
            ],
            // Initialising, waiting for a primary component and a state transfer from a donor can
            // take long on a big database; a donor or desynced member is busy, not dead.
            ...memberProbes({
              alive,
              ready: {
                exec: { command: mariadbReadyCommand(replicas) },
                periodSeconds: 10,
                timeoutSeconds: 5
              },
              startupAttempts: 180
            }),
            resources: containerResources({ cpu: "250m", memory: "1Gi" })
          }
        ]
      }
    });
  }
  get adminPassword() {
    return this.credentials.ref("password");
  }
};

// constructs/infra/memcached.ts
var import_cdk8s_plus_3310 = require("cdk8s-plus-33");
var PORT2 = 11211;
var MEMCACHED_PROPS = {
  replicas: Rules.count({ min: 1, max: 16 }),
  memoryMiB: Rules.count({ min: 64, max: 65536 }),
  image: Rules.image()
};
var Memcached = class extends ClusteredServer {
  servers;
  constructor(scope, id, props = {}) {
    super(scope, id, {
      appName: "memcached",
      props,
      propsSpec: MEMCACHED_PROPS,
      placement: groupPlacement(SchedulingKey.ANY_INFRA)
    });
    const replicas = props.replicas ?? 2;
    const memoryMiB = props.memoryMiB ?? 512;
    const services = {
      replicas,
      clientPorts: [{ name: "memcached", port: PORT2, targetPort: import_cdk8s_plus_3310.k8s.IntOrString.fromNumber(PORT2) }]
    };
    const cloud = Cloud.of(this);
    this.servers = clusterMemberHosts(this.server, services).map(
      (host2) => `${cloud.serviceHost(host2)}:${PORT2}`
    );
    const probe = { tcpSocket: { port: import_cdk8s_plus_3310.k8s.IntOrString.fromNumber(PORT2) }, periodSeconds: 10 };
    clusteredStatefulSet(this.server, {
      ...services,
      podManagementPolicy: "Parallel",
      // A cache: servers lost together cost hits, not data.
      spread: "preferred",
      pod: {
        containers: [
          {
            name: "memcached",
            image: props.image ?? "docker.io/library/memcached:1.6",
            // Stated, not the image's entrypoint: the same command runs on every memcached image.
            command: ["memcached"],
            args: ["-m", String(memoryMiB), "-p", String(PORT2)],
            ports: [{ name: "memcached", containerPort: PORT2 }],
            readinessProbe: probe,
            livenessProbe: probe,
            resources: resourcesWithMemoryLimit(
              { cpu: "50m", memory: `${memoryMiB + 64}Mi` },
              `${memoryMiB + 128}Mi`
            )
          }
        ]
      }
    });
  }
};

// constructs/infra/rabbitmq-scripts.ts
var RABBITMQ_CONFIG_DIR = "/etc/stackwright";
var RABBITMQ_COOKIE_DIR = "/etc/stackwright-cookie";
var RABBITMQ_DATA_DIR = "/var/lib/rabbitmq";
var RABBITMQ_RUN_DIR = "/run/rabbitmq";
function rabbitmqConfig(member) {
  return [
    "cluster_formation.peer_discovery_backend = classic_config",
    ...member.hosts.map(
      (host2, i) => `cluster_formation.classic_config.nodes.${i + 1} = rabbit@${shellWord(host2, "member host")}`
    ),
    // Only the majority side of a partition keeps serving, so no queue diverges.
    "cluster_partition_handling = pause_minority",
    "queue_master_locator = min-masters",
    `default_user = ${shellWord(member.adminUser, "adminUser")}`,
    "log.console = true",
    "log.file = false",
    ""
  ].join("\n");
}
function rabbitmqEnvironment(member) {
  return [
    { name: "RABBITMQ_NODENAME", value: `rabbit@$(POD_NAME).${member.peersService}` },
    { name: "RABBITMQ_USE_LONGNAME", value: "true" },
    { name: "HOME", value: RABBITMQ_DATA_DIR },
    { name: "RABBITMQ_MNESIA_BASE", value: `${RABBITMQ_DATA_DIR}/mnesia` },
    { name: "RABBITMQ_LOG_BASE", value: `${RABBITMQ_DATA_DIR}/log` },
    { name: "RABBITMQ_CONFIG_FILE", value: `${RABBITMQ_RUN_DIR}/rabbitmq.conf` },
    { name: "RABBITMQ_ENABLED_PLUGINS_FILE", value: `${RABBITMQ_CONFIG_DIR}/enabled_plugins` }
  ];
}
function rabbitmqStartScript(member) {
  return [
    "set -eu",
    "umask 077",
    `{ cat ${RABBITMQ_CONFIG_DIR}/rabbitmq.conf; printf 'default_pass = %s\\n' "$RABBITMQ_DEFAULT_PASS"; } >"$RABBITMQ_CONFIG_FILE"`,
    'rm -f "$HOME/.erlang.cookie"',
    `cat ${RABBITMQ_COOKIE_DIR}/erlang-cookie >"$HOME/.erlang.cookie"`,
    'chmod 0400 "$HOME/.erlang.cookie"',
    `peers="${member.hosts.map((h) => shellWord(h, "member host")).join(" ")}"`,
    "peer_running() {",
    "  for peer in $peers; do",
    '    [ "${peer%%.*}" = "$HOSTNAME" ] && continue',
    '    rabbitmq-diagnostics -q -n "rabbit@$peer" check_running >/dev/null 2>&1 && return 0',
    "  done",
    "  return 1",
    "}",
    'if [ ! -d "$RABBITMQ_MNESIA_BASE/$RABBITMQ_NODENAME" ] && [ "${HOSTNAME##*-}" != 0 ]; then',
    '  echo "start.sh: first start, waiting for a running peer to join"',
    "  until peer_running; do sleep 5; done",
    "fi",
    "exec rabbitmq-server",
    ""
  ].join("\n");
}
function rabbitmqReadyCommand(replicas) {
  const quorum = Math.floor(replicas / 2) + 1;
  return [
    "/bin/sh",
    "-ec",
    `rabbitmq-diagnostics -q check_running >/dev/null
running=$(rabbitmq-diagnostics -q cluster_status --formatter json | grep -o '"running_nodes":\\[[^]]*\\]' | grep -o 'rabbit@' | wc -l)
test "$running" -ge ${quorum}`
  ];
}
var RABBITMQ_ALIVE_COMMAND = ["rabbitmq-diagnostics", "-q", "ping"];

// constructs/infra/rabbitmq.ts
var RABBITMQ_PROPS = {
  replicas: quorumReplicas(9, "for quorum queues"),
  storageSize: Rules.quantity(),
  image: Rules.image()
};
var AMQP_PORT = 5672;
var MANAGEMENT_PORT = 15672;
var RabbitMQ = class extends ClusteredServer {
  credentials;
  host;
  port = AMQP_PORT;
  managementPort = MANAGEMENT_PORT;
  adminUser = "admin";
  constructor(scope, id, props = {}) {
    super(scope, id, {
      appName: "rabbitmq",
      props,
      propsSpec: RABBITMQ_PROPS,
      placement: placement(SchedulingKey.INFRA_MESSAGE_QUEUE, SchedulingKey.ANY_INFRA)
    });
    const cloud = Cloud.of(this);
    const replicas = props.replicas ?? 3;
    this.credentials = this.generatedSecret("credentials", ["password", "erlang-cookie"]);
    const name = this.server.componentName;
    this.host = cloud.serviceHost(name);
    const services = {
      replicas,
      peerPorts: [
        { name: "epmd", port: 4369 },
        { name: "cluster", port: 25672 }
      ],
      clientPorts: [
        { name: "amqp", port: AMQP_PORT },
        { name: "management", port: MANAGEMENT_PORT }
      ]
    };
    const member = {
      hosts: clusterMemberHosts(this.server, services),
      peersService: clusterServiceName(this.server, services),
      adminUser: this.adminUser
    };
    const config = configFiles(this.server, RABBITMQ_CONFIG_DIR, {
      "rabbitmq.conf": rabbitmqConfig(member),
      enabled_plugins: "[rabbitmq_management].\n",
      "start.sh": rabbitmqStartScript(member)
    });
    const alive = { exec: { command: [...RABBITMQ_ALIVE_COMMAND] }, timeoutSeconds: 15 };
    clusteredStatefulSet(this.server, {
      ...services,
      // A majority must survive the loss of a node: one member per node.
      spread: "even",
      // Members find each other on their own (start.sh); after a full stop each waits for the others.
      podManagementPolicy: "Parallel",
      storage: { size: props.storageSize ?? "5Gi" },
      pod: {
        annotations: { [CONFIG_CHECKSUM_ANNOTATION]: config.checksum },
        volumes: [
          config.volume,
          {
            name: "erlang-cookie",
            secret: {
              secretName: this.credentials.secretName,
              items: [{ key: "erlang-cookie", path: "erlang-cookie" }],
              defaultMode: 256
            }
          },
          { name: "run", emptyDir: {} }
        ],
        containers: [
          {
            name: "rabbitmq",
            image: props.image ?? cloud.image("rabbitmq", "3.13"),
            command: ["/bin/sh", `${RABBITMQ_CONFIG_DIR}/start.sh`],
            ports: [
              { name: "amqp", containerPort: AMQP_PORT },
              { name: "management", containerPort: MANAGEMENT_PORT }
            ],
            env: [
              { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
              ...rabbitmqEnvironment(member),
              envFromSecret("RABBITMQ_DEFAULT_PASS", this.adminPassword)
            ],
            volumeMounts: [
              config.mount,
              { name: "erlang-cookie", mountPath: RABBITMQ_COOKIE_DIR, readOnly: true },
              { name: "data", mountPath: RABBITMQ_DATA_DIR },
              { name: "run", mountPath: RABBITMQ_RUN_DIR }
            ],
            // A member waits for a peer before its first start, and for the others after a full
            // stop (RabbitMQ's own wait is 5 minutes). Each check starts an Erlang VM: seldom.
            ...memberProbes({
              alive,
              ready: {
                exec: { command: rabbitmqReadyCommand(replicas) },
                periodSeconds: 20,
                timeoutSeconds: 15
              },
              startupAttempts: 90
            }),
            resources: containerResources({ cpu: "250m", memory: "512Mi" })
          }
        ]
      }
    });
  }
  get adminPassword() {
    return this.credentials.ref("password");
  }
};

// constructs/infra/ovsdb.ts
var OVN_IMAGE_TAG = "24.03";
var OVSDB_PROPS = {
  replicas: quorumReplicas(7, "so a raft majority survives a partition"),
  storageSize: Rules.quantity(),
  storageClassName: Rules.dnsSubdomain(),
  image: Rules.image()
};
var NORTHBOUND = {
  id: "nb",
  dbName: "OVN_Northbound",
  schemaFile: "/usr/share/ovn/ovn-nb.ovsschema",
  fileStem: "ovnnb_db",
  clientPort: 6641,
  raftPort: 6643
};
var SOUTHBOUND = {
  id: "sb",
  dbName: "OVN_Southbound",
  schemaFile: "/usr/share/ovn/ovn-sb.ovsschema",
  fileStem: "ovnsb_db",
  clientPort: 6642,
  raftPort: 6644
};
var OvsdbDatabase = class extends Component {
  /** The database name, `OVN_Northbound` or `OVN_Southbound`. */
  dbName;
  port;
  /**
   * The OVSDB remote clients use: every member (`tcp:<member>:<port>,…`), since raft clients pick a
   * member themselves and move on when it fails.
   */
  connection;
  constructor(scope, schema2, props) {
    super(scope, schema2.id, {
      placement: placement(SchedulingKey.INFRA_OVSDB_CLUSTER, SchedulingKey.ANY_INFRA)
    });
    const name = this.componentName;
    const services = {
      replicas: props.replicas,
      peerPorts: [
        { name: "ovsdb", port: schema2.clientPort },
        { name: "raft", port: schema2.raftPort }
      ],
      clientPorts: [{ name: "ovsdb", port: schema2.clientPort }]
    };
    const peers = clusterServiceName(this, services);
    this.dbName = schema2.dbName;
    this.port = schema2.clientPort;
    const cloud = Cloud.of(this);
    this.connection = clusterMemberHosts(this, services).map((m) => `tcp:${cloud.serviceFqdn(m)}:${schema2.clientPort}`).join(",");
    const member = (host2) => cloud.serviceFqdn(`${host2}.${peers}`);
    const control = `/var/run/ovn/${schema2.fileStem}.ctl`;
    const database = `/var/lib/ovn/${schema2.fileStem}.db`;
    const start = [
      `self="tcp:${member("${HOSTNAME}")}:${schema2.raftPort}"`,
      `if [ ! -e ${database} ]; then`,
      '  if [ "${HOSTNAME##*-}" = 0 ]; then',
      `    ovsdb-tool create-cluster ${database} ${schema2.schemaFile} "$self"`,
      "  else",
      `    ovsdb-tool join-cluster ${database} ${schema2.dbName} "$self" tcp:${member(`${name}-0`)}:${schema2.raftPort}`,
      "  fi",
      "fi",
      `exec ovsdb-server ${database} --remote=ptcp:${schema2.clientPort} --unixctl=${control} --pidfile=/var/run/ovn/${schema2.fileStem}.pid -vconsole:info -vfile:off`
    ].join("\n");
    const readiness = {
      exec: {
        command: [
          "/bin/sh",
          "-c",
          `ovs-appctl -t ${control} cluster/status ${schema2.dbName} | grep -q 'Status: cluster member'`
        ]
      },
      initialDelaySeconds: 5,
      periodSeconds: 10,
      timeoutSeconds: 5
    };
    const liveness = {
      exec: { command: ["ovs-appctl", "-t", control, "version"] },
      initialDelaySeconds: 30,
      periodSeconds: 10,
      timeoutSeconds: 5,
      failureThreshold: 6
    };
    clusteredStatefulSet(this, {
      ...services,
      // A majority must survive the loss of a node: one member per node.
      spread: "even",
      podManagementPolicy: "Parallel",
      storage: { size: props.storageSize, storageClassName: props.storageClassName },
      pod: {
        volumes: [
          { name: "run", emptyDir: {} },
          { name: "tmp", emptyDir: {} }
        ],
        containers: [
          {
            name: "ovsdb-server",
            image: props.image,
            command: ["/bin/sh", "-ec", start],
            ports: [
              { name: "ovsdb", containerPort: schema2.clientPort },
              { name: "raft", containerPort: schema2.raftPort }
            ],
            volumeMounts: [
              { name: "data", mountPath: "/var/lib/ovn" },
              { name: "run", mountPath: "/var/run/ovn" },
              { name: "tmp", mountPath: "/tmp" }
            ],
            readinessProbe: readiness,
            livenessProbe: liveness,
            resources: resourcesWithMemoryLimit({ cpu: "100m", memory: "256Mi" }, "2Gi")
          }
        ]
      }
    });
  }
};
var OvsdbCluster = class extends InfraService {
  nb;
  sb;
  constructor(scope, id, props = {}) {
    super(scope, id, { appName: "ovsdbcluster", props, propsSpec: OVSDB_PROPS });
    const cloud = Cloud.of(this);
    const replicas = props.replicas ?? 3;
    const options = {
      replicas,
      image: props.image ?? cloud.image("ovn", OVN_IMAGE_TAG),
      storageSize: props.storageSize ?? "1Gi",
      storageClassName: props.storageClassName
    };
    this.nb = new OvsdbDatabase(this, NORTHBOUND, options);
    this.sb = new OvsdbDatabase(this, SOUTHBOUND, options);
  }
  get entryPoints() {
    return [this.nb, this.sb];
  }
};

// constructs/openstack-kit/input-rules.ts
var host = Rules.given(
  (value, name) => typeof value === "string" && /^[A-Za-z0-9]([-A-Za-z0-9.]*[A-Za-z0-9])?$/.test(value) && value.length <= 253 ? [] : [
    `${name} ${shown(value)} is not a host name or IPv4 address; give one such as 'galera.example.com' or '10.0.0.5'`
  ]
);
var userName = Rules.given(
  (value, name) => typeof value === "string" && /^[A-Za-z0-9_.@-]{1,64}$/.test(value) ? [] : [
    `${name} ${shown(value)} is not a user name; use letters, digits, '_', '.', '@' and '-', e.g. 'admin'`
  ]
);
var DATABASE_ENDPOINT = {
  host: required(host, "the database host"),
  port: required(Rules.port(), "the port, e.g. 3306"),
  adminPassword: required(secretRefRule, "the administrator's password as { secretName, key }"),
  clientImage: Rules.image()
};
var MESSAGING_ENDPOINT = {
  host: required(host, "the RabbitMQ host"),
  port: required(Rules.port(), "the port, e.g. 5672"),
  adminUser: required(userName, "the administrator's user name"),
  adminPassword: required(secretRefRule, "the administrator's password as { secretName, key }")
};
var cacheServer = (value, name) => {
  const match = typeof value === "string" ? /^(.*):(\d{1,5})$/.exec(value) : null;
  if (!match) return [`${name} ${shown(value)} is not host:port; write e.g. 'memcached-0.memcached:11211'`];
  return [...host(match[1], `${name} host`), ...Rules.port()(Number(match[2]), `${name} port`)];
};
var CACHE_ENDPOINT = {
  servers: required(Rules.list(cacheServer, { min: 1 }), "every memcached server as 'host:port'")
};
function endpoint(spec, what) {
  return Rules.given(
    (value, name) => isDependable(value) ? propsProblems(value, spec, { what: name, prefix: `${name}.`, otherKeysAllowed: true }) : [`${name} is not ${what}; pass ${what}`]
  );
}
var databaseRule = endpoint(DATABASE_ENDPOINT, "a MariaDB or externalDatabase(...)");
var messagingRule = endpoint(MESSAGING_ENDPOINT, "a RabbitMQ or externalMessaging(...)");
var cacheRule = endpoint(CACHE_ENDPOINT, "a Memcached or externalCache(...)");
function serviceRule(what) {
  return Rules.given((value, name) => isDependable(value) ? [] : [`${name} is not ${what}; pass ${what}`]);
}
var COMMON_INPUT_RULES = {
  keystone: serviceRule("the Keystone service"),
  database: databaseRule,
  messaging: messagingRule,
  cache: cacheRule
};
var COMMON_INPUT_HINTS = {
  keystone: "the Keystone service",
  database: "a MariaDB or externalDatabase(...)",
  messaging: "a RabbitMQ or externalMessaging(...)",
  cache: "a Memcached or externalCache(...)"
};
function commonInputHints(...names) {
  return pick(COMMON_INPUT_HINTS, names);
}
function commonInputRules(...names) {
  return pick(COMMON_INPUT_RULES, names);
}
function pick(table, names) {
  const picked = {};
  for (const name of names) picked[name] = table[name];
  return picked;
}

// constructs/openstack-kit/oslo-cache.ts
function osloCacheConfig(cache) {
  return {
    cache: {
      enabled: true,
      backend: "oslo_cache.memcache_pool",
      memcache_servers: [...cache.servers]
    }
  };
}

// constructs/openstack-kit/service-database.ts
var import_constructs3 = require("constructs");

// constructs/openstack-kit/option-texts.ts
var textSources = /* @__PURE__ */ new WeakMap();
function keepTextsApart(schema2, source) {
  textSources.set(schema2, source);
}
function optionTexts(schema2, section, option) {
  return textSources.get(schema2)?.(section, option);
}

// constructs/openstack-kit/oslo-config.ts
function mergeOslo(defaults, overrides = {}) {
  const merged2 = {};
  for (const source of [defaults, overrides]) {
    for (const [section, options] of Object.entries(source)) {
      merged2[section] = { ...merged2[section] ?? {}, ...options };
    }
  }
  return merged2;
}
function optionSpec(entry) {
  return typeof entry === "string" ? { type: entry, secret: entry === "secret" } : entry;
}
function osloProblems(file, schema2, values) {
  if (!isPlainObject(values))
    return [
      `${file}: the options must be an object of sections, e.g. { DEFAULT: { debug: true } }, got ${shown(values)}`
    ];
  const problems = [];
  for (const [section, options] of Object.entries(values)) {
    if (!isPlainObject(options)) {
      problems.push(`${file}: [${section}] must be an object of option: value, got ${shown(options)}`);
      continue;
    }
    for (const [option, value] of Object.entries(options)) {
      const entry = schema2[section]?.[option];
      if (entry === void 0) {
        problems.push(`${file}: ${unknownOption(schema2, section, option)}`);
        continue;
      }
      const spec = optionSpec(entry);
      const problem = valueProblem(spec, value);
      if (problem)
        problems.push(`${file}: [${section}] ${option} ${problem}${explain(schema2, section, option)}`);
    }
  }
  return problems;
}
function unknownOption(schema2, section, option) {
  const renamed = deprecatedIndex(schema2).get(`${section}\0${option}`);
  if (renamed) {
    return `[${section}] ${option} is a deprecated name of [${renamed.section}] ${renamed.name}; set [${renamed.section}] ${renamed.name} instead${explain(schema2, renamed.section, renamed.name)}`;
  }
  const elsewhere = Object.keys(schema2).filter((s) => s !== section && schema2[s][option] !== void 0).sort();
  if (elsewhere.length > 0) {
    return `unknown option "${option}" in [${section}]; it is an option of ${elsewhere.map((s) => `[${s}]`).join(", ")}`;
  }
  if (!schema2[section]) {
    return `unknown section [${section}]; the service reads ${Object.keys(schema2).length} sections, e.g. ${closest2(Object.keys(schema2), section)}`;
  }
  return `unknown option "${option}" in [${section}] (not defined by the service, or removed); [${section}] has ${closest2(Object.keys(schema2[section]), option)}`;
}
function closest2(names, name) {
  const shared = (a) => {
    let n = 0;
    while (n < a.length && n < name.length && a[n] === name[n]) n++;
    return n;
  };
  return [...names].sort((a, b) => shared(b) - shared(a) || a.localeCompare(b)).slice(0, 5).join(", ");
}
var deprecatedIndexes = /* @__PURE__ */ new WeakMap();
function deprecatedIndex(schema2) {
  let index = deprecatedIndexes.get(schema2);
  if (!index) {
    index = /* @__PURE__ */ new Map();
    for (const [section, options] of Object.entries(schema2)) {
      for (const [name, entry] of Object.entries(options)) {
        for (const old of optionSpec(entry).deprecatedNames ?? []) {
          const key = `${old.section}\0${old.name}`;
          if (schema2[old.section]?.[old.name] === void 0) index.set(key, { section, name });
        }
      }
    }
    deprecatedIndexes.set(schema2, index);
  }
  return index;
}
function valueProblem(spec, value) {
  if (spec.secret || spec.type === "secret") {
    return "carries a credential and cannot be set as plain text; it is read from a Secret";
  }
  if (spec.deprecatedForRemoval) {
    const why = spec.deprecatedForRemoval === true ? "" : ` (${spec.deprecatedForRemoval})`;
    return `is deprecated for removal${why}; remove the override`;
  }
  if (!matchesType(value, spec.type)) return `must be ${describe2(spec.type)}, got ${shown(value)}`;
  const items = Array.isArray(value) ? value : typeof value === "object" ? [] : [value];
  for (const item of items) {
    if (spec.choices && spec.choices.length > 0 && !spec.choices.includes(item)) {
      return `must be one of ${spec.choices.map((c) => JSON.stringify(c)).join(", ")}, got ${shown(item)}`;
    }
    if (typeof item === "number") {
      if (spec.min !== void 0 && item < spec.min) return `must be >= ${spec.min}, got ${item}`;
      if (spec.max !== void 0 && item > spec.max) return `must be <= ${spec.max}, got ${item}`;
    }
  }
  return void 0;
}
function explain(schema2, section, option) {
  const spec = { ...optionTexts(schema2, section, option), ...optionSpec(schema2[section][option]) };
  const parts = [`type: ${spec.osloType ?? describe2(spec.type)}`];
  if (spec.help) parts.push(`help: ${spec.help}`);
  return ` (${parts.join("; ")})`;
}
function renderOslo(values, schema2 = {}) {
  assertRenderable(values);
  const sections = Object.keys(values).sort(
    (a, b) => a === "DEFAULT" ? -1 : b === "DEFAULT" ? 1 : a.localeCompare(b)
  );
  const blocks = sections.filter((section) => Object.keys(values[section]).length > 0).map((section) => {
    const lines = Object.keys(values[section]).sort().flatMap((option) => {
      const entry = schema2[section]?.[option];
      return formatValue(values[section][option], entry ? optionSpec(entry) : void 0).map(
        (text) => `${option} = ${text}`
      );
    });
    return [`[${section}]`, ...lines].join("\n");
  });
  return blocks.join("\n\n") + "\n";
}
var OSLO_NAME = /^[A-Za-z0-9_.-]+$/;
function osloRenderProblems(values, what) {
  if (!isPlainObject(values))
    return [`${what} must be an object of sections, e.g. { DEFAULT: { debug: true } }, got ${shown(values)}`];
  const problems = [];
  for (const [section, options] of Object.entries(values)) {
    if (!OSLO_NAME.test(section)) {
      problems.push(
        `${what}: section name ${shown(section)} is not a plain word; use letters, digits, '_', '.' and '-'`
      );
      continue;
    }
    if (!isPlainObject(options)) {
      problems.push(`${what}: [${section}] must be an object of option: value, got ${shown(options)}`);
      continue;
    }
    for (const [option, value] of Object.entries(options)) {
      if (!OSLO_NAME.test(option)) {
        problems.push(
          `${what}: option name ${shown(option)} in [${section}] is not a plain word; use letters, digits, '_', '.' and '-'`
        );
        continue;
      }
      if (!isOsloShaped(value)) {
        problems.push(
          `${what}: [${section}] ${option} must be a string, number or boolean, or a list or dict of them, got ${shown(value)}`
        );
        continue;
      }
      const bad = textsOf(value).find((text) => !isSingleLine(text));
      if (bad !== void 0)
        problems.push(
          `${what}: [${section}] ${option} ${shown(bad)} contains a line break or control character, which would start a new line or section of the file; put the value on one line`
        );
      if (numbersOf(value).some((n) => !Number.isFinite(n)))
        problems.push(`${what}: [${section}] ${option} must be a finite number, got ${shown(value)}`);
      const secret = secretMaterialProblem(section, option, value);
      if (secret) problems.push(`${what}: [${section}] ${option} ${secret}`);
    }
  }
  return problems;
}
var NOT_PASSWORDS = /* @__PURE__ */ new Set(["auth.password"]);
function secretMaterialProblem(section, option, value) {
  const fix = `pass it from a Secret instead: envFromSecret(osloEnvName('${section}', '${option}'), { secretName, key }) (constructs/kube/secret-ref.ts) gives the pod ${osloEnvName(section, option)}, which oslo.config reads, the way Stackwright passes [database] connection`;
  const urls = textsOf(value).flatMap(urlsWithPassword);
  if (urls.length > 0) {
    return `holds a password in plain text (${urls.join(", ")}), which would be rendered into a ConfigMap; ${fix}`;
  }
  if (typeof value === "string" && value !== "" && !isSubstitution(value) && isPasswordName(option) && !NOT_PASSWORDS.has(`${section}.${option}`)) {
    return `is a password, which would be rendered into a ConfigMap in plain text; ${fix}`;
  }
  return void 0;
}
var osloValuesRule = Rules.given((value, name) => osloRenderProblems(value, name));
function assertRenderable(values) {
  const problems = osloRenderProblems(values, "oslo.config");
  if (problems.length > 0) throw new Error(problems.join("\n"));
}
function isOsloShaped(value) {
  const scalar = (v) => v === null || ["string", "number", "boolean", "undefined"].includes(typeof v);
  if (Array.isArray(value)) return value.every(scalar);
  if (isPlainObject(value)) return Object.values(value).every(scalar);
  return scalar(value);
}
function textsOf(value) {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === "object" && value !== null)
    return Object.entries(value).flatMap(([k, v]) => [k, String(v)]);
  return [String(value)];
}
function numbersOf(value) {
  const all = typeof value === "object" && value !== null ? Object.values(value) : [value];
  return all.filter((v) => typeof v === "number");
}
function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function osloEnvName(section, option) {
  return `OS_${section.toUpperCase()}__${option.toUpperCase()}`;
}
function formatValue(value, spec) {
  if (Array.isArray(value)) {
    const items = value;
    if (spec?.type === "multi") return items.map(String);
    if (spec?.bracketed) return [`[${items.map((v) => `'${v}'`).join(", ")}]`];
    return [items.join(",")];
  }
  if (typeof value === "object") {
    const dict = value;
    return [
      Object.keys(dict).sort().map((k) => `${k}:${String(dict[k])}`).join(",")
    ];
  }
  if (typeof value === "number" && spec?.type === "float" && Number.isInteger(value))
    return [value.toFixed(1)];
  return [String(value)];
}
function matchesType(value, type2) {
  switch (type2) {
    case "string":
      return typeof value === "string";
    case "int":
      return typeof value === "number" && Number.isInteger(value);
    case "float":
      return typeof value === "number" && !Number.isNaN(value);
    case "bool":
      return typeof value === "boolean";
    case "list":
    case "multi":
      return Array.isArray(value) && value.every((v) => typeof v === "string");
    case "dict":
      return typeof value === "object" && !Array.isArray(value) && Object.values(value).every((v) => ["string", "number", "boolean"].includes(typeof v));
    case "secret":
      return false;
  }
}
function describe2(type2) {
  return {
    string: "a string",
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    list: "a list of strings",
    multi: "a list of strings (one line per value)",
    dict: "an object of key: value pairs",
    secret: "a Secret"
  }[type2];
}

// constructs/openstack-kit/service-database.ts
var ServiceDatabase = class extends import_constructs3.Construct {
  credentials;
  init;
  sync;
  databaseName;
  database;
  connectionEnvName;
  constructor(scope, id, props) {
    super(scope, id);
    const cloud = Cloud.of(this);
    this.database = props.database;
    const option = props.connectionOption ?? { section: "database", option: "connection" };
    this.connectionEnvName = osloEnvName(option.section, option.option);
    this.databaseName = props.databaseName ?? Service.nameFor(scope).replace(/-/g, "_");
    this.credentials = new GeneratedSecret(this, `${id}-credentials`, {
      operatorKey: props.operatorKey,
      keys: ["password"],
      secretName: `${Service.nameFor(scope)}-${id}`
    });
    const user = this.databaseName;
    const sql = [
      `CREATE DATABASE IF NOT EXISTS \\\`${this.databaseName}\\\`;`,
      `CREATE USER IF NOT EXISTS '${user}'@'%' IDENTIFIED BY '$USER_PASSWORD';`,
      `ALTER USER '${user}'@'%' IDENTIFIED BY '$USER_PASSWORD';`,
      `GRANT ALL PRIVILEGES ON \\\`${this.databaseName}\\\`.* TO '${user}'@'%';`
    ];
    this.init = new JobComponent(this, `${id}-init`, {
      operatorKey: props.operatorKey,
      image: props.database.clientImage ?? cloud.image("mariadb", "11.4"),
      // The client reads the admin password from MYSQL_PWD and the statements (with the user's
      // password) from a here-document on stdin: neither is on the client's argv.
      command: [
        "/bin/sh",
        "-ec",
        ['mariadb -h "$DB_HOST" -P "$DB_PORT" -u root <<SQL', ...sql, "SQL"].join("\n")
      ],
      env: { DB_HOST: props.database.host, DB_PORT: String(props.database.port) },
      secretEnv: {
        MYSQL_PWD: props.database.adminPassword,
        USER_PASSWORD: this.credentials.ref("password")
      }
    });
    this.init.dependsOn(props.database, "ready").dependsOn(this.credentials, "completed");
    this.sync = new JobComponent(this, `${id}-sync`, {
      operatorKey: props.operatorKey,
      image: props.image,
      command: props.syncCommand,
      volumes: props.volumes,
      volumeMounts: props.volumeMounts,
      extraEnv: this.connectionEnv()
    });
    this.sync.dependsOn(this.init, "completed");
  }
  /** The password Secret of the service's database user. */
  get password() {
    return this.credentials.ref("password");
  }
  /**
   * Environment giving oslo.config `[database] connection` (or `connectionOption`) without a literal password: the password
   * comes from the Secret and Kubernetes expands `$(DB_PASSWORD)` when the pod starts.
   */
  connectionEnv(passwordVariable = "DB_PASSWORD") {
    return [
      envFromSecret(passwordVariable, this.password),
      { name: this.connectionEnvName, value: this.connectionUrl(passwordVariable) }
    ];
  }
  /**
   * The connection URL with the password as `$(<passwordVariable>)`, for pods that need several
   * databases (Nova's conductor and cell mapping): each gets its own password variable, which must
   * be defined before the variable holding the URL. `databaseName` names another database for the
   * same user and server (the one `nova-manage cell_v2 map_cell0` derives cell0's from).
   */
  connectionUrl(passwordVariable = "DB_PASSWORD", databaseName = this.databaseName) {
    return `mysql+pymysql://${this.databaseName}:$(${passwordVariable})@${this.database.host}:${this.database.port}/${databaseName}?charset=utf8`;
  }
};

// constructs/openstack-kit/service-messaging.ts
var import_constructs4 = require("constructs");
var curlConfigQuoted = (value) => `$(printf '%s' "${value}" | sed 's/[\\\\"]/\\\\&/g')`;
function managementApiPut(path, body) {
  const config = body === void 0 ? `'user = "%s"\\n' "$auth"` : `'user = "%s"\\ndata = "%s"\\n' "$auth" "$body"`;
  return [
    ...body === void 0 ? [] : [`body=${curlConfigQuoted(body)}`],
    `printf ${config} | curl -fsS -K - -H 'content-type: application/json' -X PUT "$API/${path}"`
  ];
}
var ServiceMessaging = class extends import_constructs4.Construct {
  credentials;
  init;
  vhost;
  /** The server the vhost is on. */
  endpoint;
  constructor(scope, id, props) {
    super(scope, id);
    const cloud = Cloud.of(this);
    this.endpoint = props.messaging;
    this.vhost = shellWord(props.vhost ?? Service.nameFor(scope), "vhost");
    this.credentials = new GeneratedSecret(this, `${id}-credentials`, {
      operatorKey: props.operatorKey,
      keys: ["password"],
      secretName: `${Service.nameFor(scope)}-${id}`
    });
    const api = `http://${props.messaging.host}:${props.managementPort ?? 15672}/api`;
    this.init = new JobComponent(this, `${id}-init`, {
      operatorKey: props.operatorKey,
      image: cloud.toolboxImage,
      command: [
        "/bin/sh",
        "-ec",
        [
          `auth=${curlConfigQuoted("$ADMIN_USER:$ADMIN_PASSWORD")}`,
          ...managementApiPut(`vhosts/${this.vhost}`),
          ...managementApiPut(
            `users/${this.vhost}`,
            '{\\"password\\":\\"$USER_PASSWORD\\",\\"tags\\":\\"\\"}'
          ),
          ...managementApiPut(
            `permissions/${this.vhost}/${this.vhost}`,
            '{\\"configure\\":\\".*\\",\\"write\\":\\".*\\",\\"read\\":\\".*\\"}'
          )
        ].join("\n")
      ],
      env: { API: api, ADMIN_USER: props.messaging.adminUser },
      secretEnv: { ADMIN_PASSWORD: props.messaging.adminPassword, USER_PASSWORD: this.password }
    });
    this.init.dependsOn(props.messaging, "ready").dependsOn(this.credentials, "completed");
  }
  get password() {
    return this.credentials.ref("password");
  }
  /** `[DEFAULT] transport_url` for oslo.config without a literal password. */
  transportUrlEnv(passwordVariable = "MQ_PASSWORD") {
    return [
      envFromSecret(passwordVariable, this.password),
      { name: "OS_DEFAULT__TRANSPORT_URL", value: this.transportUrl(passwordVariable) }
    ];
  }
  /**
   * The transport URL with the password as `$(<passwordVariable>)`, for pods that need several
   * (Nova's cell mapping records every cell's URL); define the password variable before the URL.
   */
  transportUrl(passwordVariable = "MQ_PASSWORD") {
    return `rabbit://${this.vhost}:$(${passwordVariable})@${this.endpoint.host}:${this.endpoint.port}/${this.vhost}`;
  }
};

// constructs/openstack-kit/uwsgi.ts
function uwsgiCommand(script, port, processes = 2) {
  return [
    "/bin/sh",
    "-ec",
    `exec uwsgi --http-socket :${port} --wsgi-file "$(command -v ${script})" --master --processes ${processes} --enable-threads --die-on-term --lazy-apps --buffer-size 65535 --add-header "Connection: close" --hook-master-start "unix_signal:15 gracefully_kill_them_all"`
  ];
}

// constructs/kube/api-service.ts
var import_cdk8s_plus_3311 = require("cdk8s-plus-33");

// constructs/kube/endpoint-drain.ts
var ENDPOINT_DRAIN_SECONDS = 10;
var GRACEFUL_STOP_SECONDS = 30;
function endpointDrain() {
  return { preStop: { sleep: { seconds: ENDPOINT_DRAIN_SECONDS } } };
}
var API_TERMINATION_GRACE_SECONDS = ENDPOINT_DRAIN_SECONDS + GRACEFUL_STOP_SECONDS;

// constructs/kube/service-host.ts
function completeServiceHost(scope, host2) {
  return host2.includes(".") || host2.includes(":") ? host2 : Cloud.of(scope).serviceHost(host2);
}
function completeServiceUrl(scope, url) {
  return url.replace(
    /^([a-z][a-z0-9+.-]*:\/\/)([a-z0-9-]+)(?=[:/]|$)/i,
    (_, scheme, host2) => `${scheme}${completeServiceHost(scope, host2)}`
  );
}
function serviceUrl(scope, name, port, path = "") {
  return `http://${Cloud.of(scope).serviceHost(name)}:${port}${path}`;
}

// constructs/kube/service-volumes.ts
function serviceVolumes(component, props) {
  const config = props.config ? configFiles(component, props.config.mountPath, props.config.files) : void 0;
  return {
    config,
    annotations: config ? { [CONFIG_CHECKSUM_ANNOTATION]: config.checksum } : void 0,
    volumes: [...config ? [config.volume] : [], ...props.volumes ?? [], { name: "tmp", emptyDir: {} }],
    volumeMounts: [
      ...config?.mounts ?? [],
      ...props.volumeMounts ?? [],
      { name: "tmp", mountPath: "/tmp" }
    ]
  };
}

// constructs/kube/api-service.ts
var API_SERVICE_PROPS = {
  placement: Rules.checkedElsewhere(),
  // by Component
  image: required(Rules.image(), "the container image"),
  command: commandRule,
  port: required(Rules.port(), "the port the API listens on"),
  healthPath: healthPathRule,
  replicas: Rules.count({ min: 1, max: 50 }),
  env: Rules.kubernetesObjects(),
  config: configFilesRule,
  volumes: Rules.kubernetesObjects(),
  volumeMounts: Rules.kubernetesObjects(),
  requests: requestsRule
};
var ApiService = class extends Component {
  deployment;
  serviceObject;
  port;
  /** The mounted configuration, for Jobs that need the same files. */
  config;
  constructor(scope, id, props) {
    super(scope, id, { placement: props?.placement });
    assertNoProblems(this, propsProblems(props, API_SERVICE_PROPS));
    const replicas = props.replicas ?? 2;
    this.port = props.port;
    const files = serviceVolumes(this, props);
    this.config = files.config;
    const port = import_cdk8s_plus_3311.k8s.IntOrString.fromNumber(props.port);
    const requests = props.requests ?? { cpu: "100m", memory: "256Mi" };
    const probe = (initialDelaySeconds) => ({
      httpGet: { path: props.healthPath, port },
      initialDelaySeconds,
      periodSeconds: 10,
      timeoutSeconds: 5,
      failureThreshold: 3
    });
    this.deployment = new JsonApiObject(this, "deployment", import_cdk8s_plus_3311.k8s.KubeDeployment, {
      metadata: { name: this.componentName },
      spec: {
        replicas,
        selector: { matchLabels: this.selectorLabels },
        strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: import_cdk8s_plus_3311.k8s.IntOrString.fromNumber(0) } },
        template: podTemplate(this, {
          spread: replicas > 1 ? "preferred" : void 0,
          terminationGracePeriodSeconds: API_TERMINATION_GRACE_SECONDS,
          annotations: files.annotations,
          volumes: files.volumes,
          containers: [
            {
              name: "api",
              image: props.image,
              command: props.command,
              ports: [{ name: "api", containerPort: props.port }],
              env: props.env,
              volumeMounts: files.volumeMounts,
              readinessProbe: probe(5),
              livenessProbe: probe(30),
              lifecycle: endpointDrain(),
              resources: containerResources(requests)
            }
          ]
        })
      }
    });
    this.serviceObject = new JsonApiObject(this, "service", import_cdk8s_plus_3311.k8s.KubeService, {
      metadata: { name: this.componentName },
      spec: {
        selector: this.selectorLabels,
        ports: [{ name: "api", port: props.port, targetPort: port, protocol: "TCP" }]
      }
    });
    disruptionBudget(this, replicas);
    allowFromAnywhere(this, props.port);
  }
  /** In-cluster URL of the API, from either namespace of the cloud: `http://keystone-api.openstack.svc:5000`. */
  get internalUrl() {
    return serviceUrl(this, this.componentName, this.port);
  }
};

// constructs/openstack-kit/openstack-option-schema.ts
var import_fs = require("fs");
var import_path = require("path");
var SCHEMA_ROOTS = [
  (0, import_path.join)(__dirname, "..", "openstack", "schemas"),
  (0, import_path.join)(__dirname, "..", "..", "..", "constructs", "openstack", "schemas")
];
var loaded = /* @__PURE__ */ new Map();
function loadOpenStackSchema(name, release) {
  const key = `${release}/${name}`;
  if (!loaded.has(key)) {
    const file = SCHEMA_ROOTS.map((root) => (0, import_path.join)(root, release, `${name}.json`)).find((f) => (0, import_fs.existsSync)(f));
    const schema2 = file ? JSON.parse((0, import_fs.readFileSync)(file, "utf8")) : void 0;
    if (file && schema2) keepTextsApart(schema2.sections, textsIn(file.replace(/\.json$/, ".help.json")));
    loaded.set(key, schema2);
  }
  return loaded.get(key);
}
function textsIn(file) {
  let sections;
  return (section, option) => {
    sections ??= JSON.parse((0, import_fs.readFileSync)(file, "utf8")).sections;
    return sections?.[section]?.[option];
  };
}
function openstackOptionSchema(scope, name) {
  const release = Cloud.of(scope).release;
  const file = loadOpenStackSchema(name, release);
  if (!file)
    throw new Error(
      `[${scope.node.path}] no generated option schema for ${name} ${release} in ${SCHEMA_ROOTS.join(" or ")}; reinstall the package, or in a source checkout run \`bash scripts/openstack/schemas.sh ${release}\``
    );
  return file.sections;
}

// constructs/openstack-kit/keystone-service-user.ts
var SERVICE_USER_AUTH_OPTIONS = {
  auth_type: "string",
  auth_url: "string",
  username: "string",
  password: "secret",
  project_name: "string",
  user_domain_name: "string",
  project_domain_name: "string",
  region_name: "string"
};
function serviceUserAuthConfig(keystone, registration) {
  return {
    auth_type: "password",
    auth_url: keystone.authUrl,
    username: registration.userName,
    project_name: "service",
    user_domain_name: "Default",
    project_domain_name: "Default",
    region_name: keystone.region
  };
}
function serviceUserPasswordEnv(section, registration) {
  return envFromSecret(osloEnvName(section, "password"), registration.password);
}

// constructs/openstack-kit/keystone-authtoken.ts
var KEYSTONE_AUTHTOKEN_SCHEMA = {
  keystone_authtoken: {
    www_authenticate_uri: "string",
    ...SERVICE_USER_AUTH_OPTIONS,
    memcached_servers: "list",
    service_token_roles_required: "bool"
  }
};
function keystoneAuthtokenConfig(keystone, registration, cache) {
  return {
    keystone_authtoken: {
      www_authenticate_uri: keystone.authUrl,
      ...serviceUserAuthConfig(keystone, registration),
      memcached_servers: [...cache.servers],
      service_token_roles_required: true
    }
  };
}
function keystoneAuthtokenEnv(registration) {
  return [serviceUserPasswordEnv("keystone_authtoken", registration)];
}

// constructs/openstack-kit/keystone-registration.ts
var import_constructs5 = require("constructs");

// constructs/openstack-kit/keystone-admin-job.ts
function keystoneAdminClientEnv(keystone) {
  return {
    OS_AUTH_URL: keystone.authUrl,
    OS_REGION_NAME: keystone.region,
    OS_USERNAME: "admin",
    OS_PROJECT_NAME: "admin",
    OS_USER_DOMAIN_NAME: "Default",
    OS_PROJECT_DOMAIN_NAME: "Default"
  };
}
var PRELUDE = `import os
import openstack

env = os.environ
identity = openstack.connect().identity


def ensure_user(name, domain_id, secret):
    """The user, created with the password or given it: the Secret stays authoritative."""
    user = identity.find_user(name, domain_id=domain_id)
    if user is None:
        return identity.create_user(name=name, domain_id=domain_id, password=secret)
    return identity.update_user(user, password=secret)
`;
var KeystoneAdminJob = class extends JobComponent {
  constructor(scope, id, props) {
    super(scope, id, {
      operatorKey: props.operatorKey,
      image: Cloud.of(scope).image("openstackclient"),
      command: ["python3", "-c", `${PRELUDE}
${props.program}`],
      env: { ...keystoneAdminClientEnv(props.keystone), ...props.env },
      secretEnv: { OS_PASSWORD: props.keystone.adminCredentials.ref("password"), ...props.secretEnv }
    });
    this.dependsOn(props.keystone.registrationTarget, "completed");
  }
};

// constructs/openstack-kit/keystone-registration.ts
var REGISTRATION_PROGRAM = `project = identity.find_project("service", domain_id="default")
if project is None:
    project = identity.create_project(name="service", domain_id="default")
url = env.get("ENDPOINT_URL")
if url:
    service = identity.find_service(env["SERVICE_NAME"])
    if service is None:
        service = identity.create_service(name=env["SERVICE_NAME"], type=env["SERVICE_TYPE"])
    for interface in ("internal", "public", "admin"):
        if not list(identity.endpoints(service_id=service.id, interface=interface)):
            identity.create_endpoint(service_id=service.id, interface=interface, url=url,
                                     region_id=env["OS_REGION_NAME"])
user = ensure_user(env["USER_NAME"], "default", env["SERVICE_PASSWORD"])
identity.assign_project_role_to_user(project, user, identity.find_role("admin", ignore_missing=False))
service_role = identity.find_role("service") or identity.create_role(name="service")
identity.assign_project_role_to_user(project, user, service_role)
`;
var KeystoneRegistration = class extends import_constructs5.Construct {
  credentials;
  job;
  userName;
  constructor(scope, id, props) {
    super(scope, id);
    this.userName = props.catalogName;
    this.credentials = new GeneratedSecret(this, `${id}-credentials`, {
      operatorKey: props.operatorKey,
      keys: ["password"],
      secretName: `${scope.node.id}-keystone-user`
    });
    const url = props.endpointUrl === void 0 ? void 0 : completeServiceUrl(this, props.endpointUrl);
    if (url !== void 0 && !props.serviceType) {
      throw new Error(
        `[${this.node.path}] endpointUrl needs serviceType (the catalogue type, e.g. 'volumev3')`
      );
    }
    this.job = new KeystoneAdminJob(this, id, {
      keystone: props.keystone,
      operatorKey: props.operatorKey,
      program: REGISTRATION_PROGRAM,
      env: {
        USER_NAME: this.userName,
        ...url === void 0 ? {} : { SERVICE_NAME: props.catalogName, SERVICE_TYPE: props.serviceType ?? "", ENDPOINT_URL: url }
      },
      secretEnv: { SERVICE_PASSWORD: this.credentials.ref("password") }
    });
    this.job.dependsOn(this.credentials, "completed");
  }
  /** The service user's password, for `[keystone_authtoken] password`. */
  get password() {
    return this.credentials.ref("password");
  }
};

// constructs/openstack-kit/openstack-service-dependencies.ts
function openstackServiceDependencies(service, inputs, props) {
  const { keystone } = inputs;
  const { operatorKey } = props;
  const database = new ServiceDatabase(service, "db", {
    database: inputs.database,
    operatorKey,
    image: props.image,
    syncCommand: props.syncCommand,
    connectionOption: props.connectionOption
  });
  const messaging = inputs.messaging ? new ServiceMessaging(service, "mq", { messaging: inputs.messaging, operatorKey }) : void 0;
  const registration = new KeystoneRegistration(service, "ks-register", {
    ...props.registration,
    keystone,
    operatorKey
  });
  return {
    database,
    messaging,
    registration,
    authtokenConfig: keystoneAuthtokenConfig(keystone, registration, inputs.cache),
    env: [
      ...database.connectionEnv(),
      ...messaging ? messaging.transportUrlEnv() : [],
      ...keystoneAuthtokenEnv(registration)
    ],
    gate(component, options = {}) {
      component.dependsOn(keystone, "ready").dependsOn(inputs.database, "ready").dependsOn(database.sync, "completed");
      if (options.registration ?? true) component.dependsOn(registration.job, "completed");
      if (options.cache ?? true) component.dependsOn(inputs.cache, "ready");
      if (inputs.messaging && messaging) {
        if (options.messaging === "runtime") component.dependsOn(inputs.messaging, "runtime");
        else component.dependsOn(inputs.messaging, "ready").dependsOn(messaging.init, "completed");
      }
      return component;
    }
  };
}

// constructs/kube/required-inputs.ts
function requireInputs(scope, props, hints) {
  const given = props ?? {};
  const missing = Object.keys(hints).filter((name) => given[name] === void 0 || given[name] === null);
  if (missing.length === 0) return;
  const className = scope.constructor.name;
  const lines = missing.map(
    (name) => `[${scope.node.path}] missing required input "${name}": pass ${hints[name]} as \`${name}\` (new ${className}(scope, '${scope.node.id}', { ${name}, ... }))`
  );
  throw new Error(lines.join("\n"));
}

// constructs/openstack-kit/openstack-service.ts
var API_SERVICE_DEFAULTS = {
  DEFAULT: { debug: false, use_stderr: true },
  oslo_messaging_notifications: { driver: ["noop"] },
  oslo_middleware: { enable_proxy_headers_parsing: true }
};
function apiServiceDefaults(defaults) {
  return mergeOslo(API_SERVICE_DEFAULTS, defaults);
}
var OPTIONS = {
  // Here: that every option renders as written; against the file's schema: at synthesis.
  config: osloValuesRule,
  image: Rules.image()
};
var OpenStackService = class extends Service {
  /** The image the service's components run. */
  image;
  /** The operator key the service's Jobs are scheduled with. */
  operatorKey;
  /**
   * The options of the service's configuration file, for rendering and for the check of `config`
   * (which reads it at synthesis). A file with sections the user names (Cinder's backends) widens
   * it in the service's constructor.
   */
  schema;
  /** Where the service's configuration files are mounted: `/etc/<image>`, e.g. `/etc/glance`. */
  configDir;
  /** The user's overrides of the configuration file. */
  userConfig;
  constructor(scope, id, props, descriptor) {
    super(scope, id, { appName: descriptor.appName ?? descriptor.image });
    requireInputs(this, props, descriptor.inputs);
    assertNoProblems(
      this,
      propsProblems(
        props,
        { ...OPTIONS, ...descriptor.props },
        { otherKeysAllowed: descriptor.props === void 0 }
      )
    );
    this.image = props.image ?? descriptor.defaultImage ?? Cloud.of(this).image(descriptor.image);
    this.operatorKey = descriptor.operatorKey;
    const schema2 = descriptor.schema ?? descriptor.image;
    this.schema = typeof schema2 === "string" ? openstackOptionSchema(this, schema2) : schema2;
    this.userConfig = props.config;
    this.configDir = `/etc/${descriptor.image}`;
    const configFile = descriptor.configFile ?? `${typeof schema2 === "string" ? schema2 : descriptor.image}.conf`;
    addCheck(this, () => osloProblems(configFile, this.schema, props.config ?? {}));
  }
  dependencies(inputs, props) {
    return openstackServiceDependencies(this, inputs, {
      ...props,
      operatorKey: this.operatorKey,
      image: this.image
    });
  }
  /** Stackwright's defaults with the user's `config` merged over them. */
  configWith(defaults) {
    return mergeOslo(defaults, this.userConfig);
  }
  /** The configuration file's text: the defaults, the user's `config` over them, rendered by the schema. */
  renderConfig(defaults) {
    const values = this.configWith(defaults);
    assertNoProblems(this, osloRenderProblems(values, `the rendered ${this.configDir}`));
    return renderOslo(values, this.schema);
  }
};

// constructs/openstack-kit/openstack-api-service.ts
var OpenStackApiService = class extends OpenStackService {
  /** In-cluster URL of the API, e.g. `http://glance-api.openstack.svc:9292`. */
  get internalUrl() {
    return this.api.internalUrl;
  }
  get entryPoints() {
    return [this.api];
  }
  /**
   * The in-cluster URL the API built by {@link serveApi} answers at,
   * `http://<service>-api.<namespace>.svc:<port><path>`: for the catalogue entry, which is
   * registered before the API exists.
   */
  apiUrl(port, path = "") {
    return serviceUrl(this, `${this.serviceName}-api`, port, path);
  }
  /** The API component `<service>-api`, running the service's image with its configuration files. */
  serveApi(props) {
    const { schedulingKey, files, ...api } = props;
    return new ApiService(this, "api", {
      placement: schedulingKey ? placement(schedulingKey, SchedulingKey.ANY_API) : groupPlacement(SchedulingKey.ANY_API),
      image: this.image,
      config: { mountPath: this.configDir, files },
      ...api
    });
  }
};

// constructs/openstack/keystone.ts
var PORT3 = 5e3;
var KEYSTONE_NOTIFICATION_TOPIC = "notifications";
var KEYSTONE = {
  image: "keystone",
  operatorKey: SchedulingKey.OPERATOR_KEYSTONE,
  inputs: commonInputHints("database", "cache"),
  props: {
    ...commonInputRules("database", "cache", "messaging"),
    replicas: Rules.count({ min: 1, max: 50 }),
    // Rendered into other services' configuration and the bootstrap command line.
    region: Rules.given(
      (value, name) => typeof value === "string" && /^[A-Za-z0-9_.-]{1,255}$/.test(value) ? [] : [
        `${name} ${shown(value)} is not a region id; use letters, digits, '_', '.' and '-', e.g. 'RegionOne'`
      ]
    )
  }
};
var Keystone = class extends OpenStackApiService {
  api;
  bootstrap;
  adminCredentials;
  region;
  /** Keystone's vhost and user, where its notifications go; present with `messaging`. */
  messaging;
  notificationConsumers = [];
  constructor(scope, id, props) {
    super(scope, id, props, KEYSTONE);
    const { image, operatorKey } = this;
    this.region = props.region ?? "RegionOne";
    addCheck(this, () => [
      ...props.messaging && this.notificationConsumers.length === 0 ? [
        "messaging is set, so Keystone sends notifications, but nothing consumes them (their queue would grow without bound); remove `messaging` from Keystone, or add a consumer such as Barbican with its keystone listener"
      ] : []
    ]);
    if (props.messaging)
      this.messaging = new ServiceMessaging(this, "mq", { messaging: props.messaging, operatorKey });
    const fernetKeys = new GeneratedSecret(this, "fernet-setup", {
      operatorKey,
      keys: ["0", "1"],
      format: "fernet",
      secretName: `${id}-fernet-keys`
    });
    const credentialKeys = new GeneratedSecret(this, "credential-setup", {
      operatorKey,
      keys: ["0", "1"],
      format: "fernet",
      secretName: `${id}-credential-keys`
    });
    this.adminCredentials = new GeneratedSecret(this, "admin-credentials", {
      operatorKey,
      keys: ["password"]
    });
    const keyVolumes = [
      { name: "fernet-keys", secret: { secretName: fernetKeys.secretName } },
      { name: "credential-keys", secret: { secretName: credentialKeys.secretName } }
    ];
    const keyMounts = [
      { name: "fernet-keys", mountPath: `${this.configDir}/fernet-keys`, readOnly: true },
      { name: "credential-keys", mountPath: `${this.configDir}/credential-keys`, readOnly: true }
    ];
    const conf = this.renderConfig({
      DEFAULT: { debug: false, use_stderr: true },
      ...osloCacheConfig(props.cache),
      token: { provider: "fernet", expiration: 3600 },
      fernet_tokens: { key_repository: `${this.configDir}/fernet-keys`, max_active_keys: 3 },
      credential: { key_repository: `${this.configDir}/credential-keys`, provider: "fernet" },
      oslo_messaging_notifications: props.messaging ? { driver: ["messagingv2"], topics: [KEYSTONE_NOTIFICATION_TOPIC] } : { driver: ["noop"] },
      oslo_middleware: { enable_proxy_headers_parsing: true }
    });
    const database = new ServiceDatabase(this, "db", {
      database: props.database,
      operatorKey,
      image,
      syncCommand: ["keystone-manage", "db_sync"],
      volumeMounts: keyMounts,
      volumes: keyVolumes
    });
    database.sync.dependsOn(fernetKeys, "completed").dependsOn(credentialKeys, "completed");
    this.api = this.serveApi({
      schedulingKey: SchedulingKey.IDENTITY_API,
      command: uwsgiCommand("keystone-wsgi-public", PORT3),
      port: PORT3,
      healthPath: "/v3",
      replicas: props.replicas,
      env: [...database.connectionEnv(), ...this.messaging?.transportUrlEnv() ?? []],
      volumes: keyVolumes,
      volumeMounts: keyMounts,
      files: { "keystone.conf": conf }
    });
    const config = this.api.config;
    this.api.dependsOn(database.sync, "completed").dependsOn(props.database, "ready").dependsOn(props.cache, "ready");
    if (props.messaging && this.messaging) {
      this.api.dependsOn(props.messaging, "runtime").dependsOn(this.messaging.init, "runtime");
    }
    this.bootstrap = new JobComponent(this, "bootstrap", {
      operatorKey,
      image,
      command: [
        "keystone-manage",
        "bootstrap",
        "--bootstrap-region-id",
        this.region,
        "--bootstrap-admin-url",
        this.api.internalUrl,
        "--bootstrap-internal-url",
        this.api.internalUrl,
        "--bootstrap-public-url",
        this.api.internalUrl
      ],
      extraEnv: [
        // keystone-manage reads the password from here when --bootstrap-password is not given: off argv.
        envFromSecret("OS_BOOTSTRAP_PASSWORD", this.adminCredentials.ref("password")),
        ...database.connectionEnv()
      ],
      volumes: [...keyVolumes, config.volume],
      volumeMounts: [...keyMounts, ...config.mounts]
    });
    this.bootstrap.dependsOn(this.api, "ready").dependsOn(this.adminCredentials, "completed");
  }
  /**
   * Registers a component that consumes Keystone's notifications from {@link Keystone.messaging}
   * (topic {@link KEYSTONE_NOTIFICATION_TOPIC}); without one, `messaging` is rejected.
   */
  addNotificationConsumer(consumer) {
    this.notificationConsumers.push(consumer);
  }
  /** Services register themselves once bootstrap has created the admin user and the identity endpoints. */
  get registrationTarget() {
    return this.bootstrap;
  }
  /** In-cluster identity URL, e.g. `http://keystone-api.openstack.svc:5000/v3`. */
  get authUrl() {
    return `${this.api.internalUrl}/v3`;
  }
};

// constructs/openstack-kit/ceph-client.ts
function cephClientProblems(client, where) {
  if (typeof client !== "object" || client === null)
    return [`${where} must be { monitors, user, keyring }, got ${shown(client)}`];
  const problems = [];
  if (!Array.isArray(client.monitors) || client.monitors.length === 0)
    problems.push(`${where}.monitors is empty; list the Ceph monitors, e.g. ['10.0.0.1:6789']`);
  for (const monitor of Array.isArray(client.monitors) ? client.monitors : []) {
    if (typeof monitor !== "string" || !/^[A-Za-z0-9.:[\]-]+$/.test(monitor))
      problems.push(
        `${where}.monitors: ${shown(monitor)} is not a monitor address; write host or host:port, e.g. '10.0.0.1:6789'`
      );
  }
  if (typeof client.user !== "string" || !/^[A-Za-z0-9_.-]+$/.test(client.user) || client.user.startsWith("client.")) {
    problems.push(
      `${where}.user ${JSON.stringify(client.user)} is not a cephx user name; give it without the "client." prefix, e.g. 'cinder'`
    );
  }
  return problems;
}
function cephPoolProblems(value, where) {
  return [
    ...typeof value?.pool === "string" && /^[A-Za-z0-9_.-]+$/.test(value.pool) ? [] : [
      `${where}.pool ${shown(value?.pool)} is not a Ceph pool name; use letters, digits, '_', '.' and '-'`
    ],
    ...cephClientProblems(value?.ceph, `${where}.ceph`)
  ];
}

// constructs/kube/worker-service.ts
var import_cdk8s_plus_3313 = require("cdk8s-plus-33");

// constructs/kube/agent-secret-copy.ts
var import_cdk8s_plus_3312 = require("cdk8s-plus-33");
var AgentSecretCopy = class extends JobComponent {
  secretName;
  readers = [];
  constructor(scope, secretName) {
    const cloud = Cloud.of(scope);
    const from = cloud.namespace;
    const to = cloud.agentNamespace;
    const read = { apiGroups: [""], resources: ["secrets"], resourceNames: [secretName], verbs: ["get"] };
    super(scope, secretName, {
      operatorKey: SchedulingKey.OPERATOR_CONFIGURED_DAEMON_SET,
      image: cloud.toolboxImage,
      kubernetesAccess: [read],
      // The values go from kubectl's stdout to the shell's builtin printf to kubectl's stdin: never
      // on a command line.
      command: [
        "/bin/sh",
        "-ec",
        [
          `kubectl get secret -n ${to} ${secretName} >/dev/null 2>&1 && exit 0`,
          `data=$(kubectl get secret -n ${from} ${secretName} -o jsonpath='{.data}')`,
          `printf '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"${secretName}","namespace":"${to}"},"data":%s}' "$data" | kubectl create -f -`
        ].join("\n")
      ]
    });
    this.secretName = secretName;
    const metadata = { name: this.componentName, namespace: to };
    new JsonApiObject(this, "agent-role", import_cdk8s_plus_3312.k8s.KubeRole, {
      metadata,
      rules: [
        read,
        // RBAC cannot narrow `create` by name: see docs/security.md for what that leaves.
        { apiGroups: [""], resources: ["secrets"], verbs: ["create"] }
      ]
    });
    new JsonApiObject(this, "agent-role-binding", import_cdk8s_plus_3312.k8s.KubeRoleBinding, {
      metadata,
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: this.componentName },
      subjects: [{ kind: "ServiceAccount", name: this.componentName, namespace: from }]
    });
    this.dependsOn(generatorsOf(cloud, secretName), "completed");
  }
  /** Enabled while a node agent that reads the Secret is: a copy no one reads is not made. */
  get enabled() {
    return super.enabled && this.readers.some((c) => c.enabled);
  }
  /** Makes `agent` wait for the copy. */
  readBy(agent) {
    this.readers.push(agent);
    agent.dependsOn(this, "completed");
  }
};
var AgentSecrets = class _AgentSecrets extends Service {
  /** The cloud's service, created on first use. */
  static of(cloud) {
    const existing = cloud.node.tryFindChild("agent-secrets");
    return existing instanceof _AgentSecrets ? existing : new _AgentSecrets(cloud, "agent-secrets");
  }
  /** The copy of `secretName`, created on first use. */
  copy(secretName) {
    const existing = this.node.tryFindChild(secretName);
    return existing instanceof AgentSecretCopy ? existing : new AgentSecretCopy(this, secretName);
  }
  get entryPoints() {
    return this.components;
  }
};
function copySecretsForNodeAgent(component, pod) {
  const cloud = Cloud.of(component);
  if (!cloud.isNodeAgent(component)) return;
  for (const secretName of secretsReadBy(pod)) {
    AgentSecrets.of(cloud).copy(secretName).readBy(component);
  }
}
function secretsReadBy(pod) {
  const names = /* @__PURE__ */ new Set();
  const spec = pod.spec;
  for (const container of [...spec?.initContainers ?? [], ...spec?.containers ?? []]) {
    for (const env of container.env ?? []) {
      const name = env.valueFrom?.secretKeyRef?.name;
      if (name) names.add(name);
    }
    for (const from of container.envFrom ?? []) if (from.secretRef?.name) names.add(from.secretRef.name);
  }
  for (const volume of spec?.volumes ?? []) {
    if (volume.secret?.secretName) names.add(volume.secret.secretName);
    for (const source of volume.projected?.sources ?? [])
      if (source.secret?.name) names.add(source.secret.name);
  }
  return [...names].sort();
}
function generatorsOf(cloud, secretName) {
  return {
    get dependencyTargets() {
      return cloud.components.filter(
        (c) => c instanceof GeneratedSecret && c.secretName === secretName
      );
    }
  };
}

// constructs/kube/worker-service.ts
var WORKER_SERVICE_PROPS = {
  placement: Rules.checkedElsewhere(),
  // by Component
  image: required(Rules.image(), "the container image"),
  command: commandRule,
  workload: Rules.oneOf("Deployment", "StatefulSet", "DaemonSet"),
  replicas: Rules.count({ min: 1, max: 50 }),
  connectedTo: required(
    Rules.list(Rules.port(), { min: 1 }),
    "the ports the worker connects to (at least one), which its readiness check tries"
  ),
  env: Rules.kubernetesObjects(),
  config: configFilesRule,
  volumes: Rules.kubernetesObjects(),
  volumeMounts: Rules.kubernetesObjects(),
  requests: requestsRule,
  hostAgent: Rules.bool(),
  forcedDownscale: Rules.bool()
};
var WorkerService = class extends Component {
  /** The Deployment, StatefulSet or DaemonSet. */
  workload;
  config;
  constructor(scope, id, props) {
    super(scope, id, { placement: props?.placement });
    assertNoProblems(this, propsProblems(props, WORKER_SERVICE_PROPS));
    const kind = props.workload ?? "Deployment";
    const replicas = props.replicas ?? 1;
    addCheck(this, () => [
      ...props.forcedDownscale && kind !== "DaemonSet" ? ["forcedDownscale applies to DaemonSets only; scale a Deployment or StatefulSet with `replicas`"] : []
    ]);
    const files = serviceVolumes(this, props);
    this.config = files.config;
    const requests = props.requests ?? { cpu: "100m", memory: "256Mi" };
    const check = connectionCheck(props.connectedTo);
    const template = podTemplate(this, {
      hostAgent: props.hostAgent,
      spread: kind !== "DaemonSet" && replicas > 1 ? "preferred" : void 0,
      forcedDownscale: props.forcedDownscale,
      annotations: files.annotations,
      volumes: files.volumes,
      containers: [
        {
          // Named after the role (`scheduler`, `conductor`), so logs and diagnostics read naturally.
          name: this.role,
          image: props.image,
          command: props.command,
          env: props.env && props.env.length > 0 ? props.env : void 0,
          volumeMounts: files.volumeMounts,
          readinessProbe: {
            exec: { command: check },
            initialDelaySeconds: 10,
            periodSeconds: 10,
            timeoutSeconds: 5,
            failureThreshold: 3
          },
          // Restart only after five minutes without a connection: oslo.messaging reconnects on its
          // own after a broker failover, but a worker that stays disconnected is wedged.
          livenessProbe: {
            exec: { command: check },
            initialDelaySeconds: 60,
            periodSeconds: 10,
            timeoutSeconds: 5,
            failureThreshold: 30
          },
          resources: containerResources(requests)
        }
      ]
    });
    copySecretsForNodeAgent(this, template);
    const metadata = { name: this.componentName };
    const selector = { matchLabels: this.selectorLabels };
    if (kind === "DaemonSet") {
      this.workload = new JsonApiObject(this, "daemonset", import_cdk8s_plus_3313.k8s.KubeDaemonSet, {
        metadata,
        spec: { selector, updateStrategy: { type: "RollingUpdate" }, template }
      });
    } else if (kind === "StatefulSet") {
      new JsonApiObject(this, "service", import_cdk8s_plus_3313.k8s.KubeService, {
        metadata,
        spec: { clusterIp: "None", selector: this.selectorLabels }
      });
      this.workload = new JsonApiObject(this, "statefulset", import_cdk8s_plus_3313.k8s.KubeStatefulSet, {
        metadata,
        spec: {
          serviceName: this.componentName,
          replicas,
          podManagementPolicy: "Parallel",
          selector,
          template
        }
      });
    } else {
      this.workload = new JsonApiObject(this, "deployment", import_cdk8s_plus_3313.k8s.KubeDeployment, {
        metadata,
        spec: {
          replicas,
          selector,
          strategy: {
            type: "RollingUpdate",
            rollingUpdate: { maxUnavailable: import_cdk8s_plus_3313.k8s.IntOrString.fromNumber(replicas > 1 ? 1 : 0) }
          },
          template
        }
      });
    }
    if (kind !== "DaemonSet") disruptionBudget(this, replicas);
  }
};
function connectionCheck(ports) {
  const need = [...new Set(ports)].sort((a, b) => a - b).map((p) => `need["${p.toString(16).toUpperCase().padStart(4, "0")}"]`).join("; ");
  const awk = `BEGIN { ${need} } $1 != "sl" && $4 == "01" { n = split($3, a, ":"); if (a[n] in need) seen[a[n]] = 1 } END { for (p in need) if (!(p in seen)) exit 1 }`;
  return ["/bin/sh", "-c", `cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '${awk}'`];
}

// constructs/openstack/cinder.ts
var CINDER = {
  image: "cinder",
  operatorKey: SchedulingKey.OPERATOR_CINDER,
  inputs: {
    ...commonInputHints("keystone", "database", "messaging", "cache"),
    volumeBackends: "a list of volume backends, e.g. [{ type: 'rbd', name: 'ceph', pool: 'volumes', ceph }]"
  },
  props: {
    ...COMMON_INPUT_RULES,
    // The Ceph clients here, before ceph.conf is rendered from them; the rest of each backend at
    // synthesis (backendProblems), against the schema the backends widen.
    volumeBackends: Rules.list(
      Rules.given(
        (value, name) => value?.type === "rbd" ? cephPoolProblems(value, name) : required(Rules.oneOf("rbd", "lvm"), "'rbd' or 'lvm'")(
          value?.type,
          `${name}.type`
        )
      ),
      { max: 32 }
    ),
    backup: Rules.given(
      (value, name) => value?.type === "ceph" ? cephPoolProblems(value, name) : required(Rules.oneOf("ceph", "swift"), "'ceph' or 'swift'")(
        value?.type,
        `${name}.type`
      )
    ),
    apiReplicas: Rules.count({ min: 1, max: 20 }),
    schedulerReplicas: Rules.count({ min: 1, max: 10 })
  }
};

// constructs/openstack/barbican.ts
var BARBICAN = {
  image: "barbican",
  operatorKey: SchedulingKey.OPERATOR_BARBICAN,
  inputs: commonInputHints("keystone", "database", "messaging", "cache"),
  props: {
    ...COMMON_INPUT_RULES,
    apiReplicas: Rules.count({ min: 1, max: 20 }),
    keystoneListener: Rules.bool()
  }
};

// constructs/openstack/heat.ts
var HEAT = {
  image: "heat",
  operatorKey: SchedulingKey.OPERATOR_HEAT,
  inputs: commonInputHints("keystone", "database", "messaging", "cache"),
  props: {
    ...COMMON_INPUT_RULES,
    apiReplicas: Rules.count({ min: 1, max: 20 }),
    engineReplicas: Rules.count({ min: 1, max: 20 }),
    engineWorkers: Rules.count({ min: 1, max: 64 }),
    // A Keystone domain name on the domain-setup Job's command line and in heat.conf.
    stackUserDomain: Rules.given(
      (value, name) => typeof value === "string" && /^[A-Za-z0-9_-]+$/.test(value) ? [] : [`${name} ${shown(value)} must be letters, digits, '_' or '-'`]
    )
  }
};

// constructs/openstack/gnocchi.ts
var import_cdk8s_plus_3314 = require("cdk8s-plus-33");
var GNOCCHI = {
  image: "gnocchi",
  operatorKey: SchedulingKey.OPERATOR_GNOCCHI,
  inputs: commonInputHints("keystone", "database", "cache"),
  props: {
    ...commonInputRules("keystone", "database", "cache"),
    storage: Rules.given((value, name) => {
      const storage = value;
      const type2 = storage?.type;
      if (type2 === "ceph") return cephPoolProblems(value, name);
      return [
        ...required(Rules.oneOf("file", "ceph"), "'file' or 'ceph'")(type2, `${name}.type`),
        ...Rules.quantity()(storage?.size, `${name}.size`),
        ...Rules.dnsSubdomain()(storage?.storageClassName, `${name}.storageClassName`)
      ];
    }),
    apiReplicas: Rules.count({ min: 1, max: 20 }),
    metricdReplicas: Rules.count({ min: 1, max: 20 }),
    metricdWorkers: Rules.count({ min: 1, max: 64 })
  }
};

// constructs/openstack/ceilometer.ts
var import_yaml = require("yaml");
var CEILOMETER = {
  image: "ceilometer",
  operatorKey: SchedulingKey.OPERATOR_CEILOMETER,
  inputs: {
    ...commonInputHints("keystone", "messaging"),
    gnocchi: "the Gnocchi service (where samples are published)"
  },
  props: {
    ...commonInputRules("keystone", "messaging", "cache"),
    gnocchi: serviceRule("the Gnocchi service"),
    // The Nova service: only its `compute` is read.
    nova: Rules.given(
      (value, name) => typeof value === "object" && value !== null && "compute" in value ? [] : [`${name} is not the Nova service; pass the Nova service (its compute agents are polled)`]
    ),
    centralReplicas: Rules.count({ min: 1, max: 10 }),
    notificationReplicas: Rules.count({ min: 1, max: 10 }),
    pollingInterval: Rules.count({ min: 10, max: 86400 }),
    archivePolicy: Rules.nonEmptyText()
  }
};

// constructs/openstack/infra-ironic.ts
var WHOLE_NUMBER = Rules.count({});
var IRONIC_NETWORK = Rules.object({
  name: required(Rules.nonEmptyText(), "the Neutron network's name"),
  physicalNetwork: Rules.nonEmptyText(),
  cidr: Rules.nonEmptyText()
});
var IRONIC = {
  image: "ironic",
  // The label value Stackwright has always written for this service: deployed objects keep it.
  appName: "infraironic",
  operatorKey: SchedulingKey.OPERATOR_INFRA_IRONIC,
  inputs: commonInputHints("keystone", "database", "messaging", "cache"),
  props: {
    ...COMMON_INPUT_RULES,
    glance: serviceRule("the Glance service"),
    neutron: serviceRule("the Neutron service"),
    swift: serviceRule("the object store"),
    networks: Rules.object({
      provisioning: required(IRONIC_NETWORK, "{ name } of the provisioning network"),
      cleaning: IRONIC_NETWORK
    }),
    apiReplicas: Rules.count({ min: 1, max: 20 }),
    // Whole numbers here, before ironic.conf is rendered from them (NaN would reach the renderer);
    // the ranges, which depend on each other and on config, are checked at synthesis (conductorProblems).
    conductor: Rules.object({
      replicas: WHOLE_NUMBER,
      workersPoolSize: WHOLE_NUMBER,
      periodicMaxWorkers: WHOLE_NUMBER,
      periodicTaskSpacing: Rules.object({
        syncPowerState: WHOLE_NUMBER,
        checkProvisionState: WHOLE_NUMBER,
        syncLocalState: WHOLE_NUMBER
      })
    }),
    enabledHardwareTypes: Rules.list(Rules.nonEmptyText())
  }
};

// constructs/openstack/glance.ts
var import_cdk8s_plus_3315 = require("cdk8s-plus-33");
var PORT4 = 9292;
var DATA_DIR = "/var/lib/glance";
var GLANCE = {
  image: "glance",
  operatorKey: SchedulingKey.OPERATOR_GLANCE,
  schema: "glance-api",
  inputs: commonInputHints("keystone", "database", "cache"),
  props: {
    ...commonInputRules("keystone", "database", "cache"),
    replicas: Rules.count({ min: 1, max: 20 }),
    storage: Rules.either(
      (value) => value.type === "file",
      Rules.object({
        type: Rules.oneOf("file"),
        volume: required(
          Rules.checkedElsewhere(),
          'a Kubernetes volume, e.g. { name: "images", nfs: {...} }'
        )
      }),
      Rules.object({
        type: required(Rules.oneOf("pvc", "file"), "'pvc' or 'file'"),
        size: Rules.quantity(),
        storageClassName: Rules.dnsSubdomain(),
        accessMode: Rules.oneOf("ReadWriteOnce", "ReadWriteMany")
      })
    )
  }
};
var Glance = class extends OpenStackApiService {
  api;
  registration;
  database;
  storageInit;
  constructor(scope, id, props) {
    super(scope, id, props, GLANCE);
    const { image, operatorKey } = this;
    const storage = props.storage ?? { type: "pvc" };
    const replicas = props.replicas ?? 2;
    addCheck(this, () => [
      ...storage.type === "pvc" && storage.accessMode === "ReadWriteOnce" && replicas > 1 ? [
        `storage.accessMode ReadWriteOnce allows one API pod, got replicas ${replicas}; use accessMode 'ReadWriteMany' or replicas 1`
      ] : []
    ]);
    const deps = this.dependencies(props, {
      syncCommand: ["glance-manage", "db_sync"],
      registration: {
        serviceType: "image",
        catalogName: "glance",
        endpointUrl: this.apiUrl(PORT4)
      }
    });
    this.database = deps.database;
    this.registration = deps.registration;
    const imagesVolume = this.imagesVolume(storage);
    const imagesMount = { name: "images", mountPath: DATA_DIR };
    const directories = ["images", "staging", "tasks"].map((d) => `${DATA_DIR}/${d}`);
    this.storageInit = new JobComponent(this, "storage-init", {
      operatorKey,
      image,
      // Creates the store's directories and proves the volume is writable by Glance's user, so a
      // wrongly provisioned volume fails here, with a Job log, not on the first image upload.
      command: [
        "/bin/sh",
        "-ec",
        `mkdir -p ${directories.join(" ")}
` + directories.map((d) => `touch ${d}/.stackwright-probe && rm ${d}/.stackwright-probe`).join("\n") + `
df -h ${DATA_DIR}`
      ],
      volumes: [imagesVolume],
      volumeMounts: [imagesMount]
    });
    if (storage.type === "pvc") {
      new JsonApiObject(this.storageInit, "images", import_cdk8s_plus_3315.k8s.KubePersistentVolumeClaim, {
        metadata: { name: `${this.serviceName}-images` },
        spec: {
          accessModes: [storage.accessMode ?? "ReadWriteMany"],
          storageClassName: storage.storageClassName,
          resources: { requests: { storage: import_cdk8s_plus_3315.k8s.Quantity.fromString(storage.size ?? "50Gi") } }
        }
      });
    }
    const conf = this.renderConfig(
      apiServiceDefaults({
        DEFAULT: {
          enabled_backends: { file: "file" },
          show_image_direct_url: false
        },
        glance_store: { default_backend: "file" },
        file: { filesystem_store_datadir: `${DATA_DIR}/images` },
        os_glance_staging_store: { filesystem_store_datadir: `${DATA_DIR}/staging` },
        os_glance_tasks_store: { filesystem_store_datadir: `${DATA_DIR}/tasks` },
        paste_deploy: { flavor: "keystone" },
        oslo_concurrency: { lock_path: "/tmp/glance" },
        ...deps.authtokenConfig
      })
    );
    this.api = this.serveApi({
      schedulingKey: SchedulingKey.IMAGE_API,
      command: ["glance-api"],
      port: PORT4,
      healthPath: "/healthcheck",
      replicas,
      env: deps.env,
      files: { "glance-api.conf": conf },
      volumes: [imagesVolume],
      volumeMounts: [imagesMount],
      requests: { cpu: "100m", memory: "512Mi" }
    });
    deps.gate(this.api).dependsOn(this.storageInit, "completed");
  }
  imagesVolume(storage) {
    if (storage.type === "file") return { ...storage.volume, name: "images" };
    return { name: "images", persistentVolumeClaim: { claimName: `${this.serviceName}-images` } };
  }
};

// constructs/openstack/placement.ts
var PORT5 = 8778;
var PLACEMENT2 = {
  image: "placement",
  // The label value Stackwright has always written for this service: deployed objects keep it.
  appName: "placementservice",
  // Yaook runs Placement as part of Nova: there is no placement operator key.
  operatorKey: SchedulingKey.OPERATOR_NOVA,
  inputs: commonInputHints("keystone", "database", "cache"),
  props: {
    ...commonInputRules("keystone", "database", "cache"),
    replicas: Rules.count({ min: 1, max: 50 })
  }
};
var Placement = class extends OpenStackApiService {
  api;
  registration;
  database;
  constructor(scope, id, props) {
    super(scope, id, props, PLACEMENT2);
    const deps = this.dependencies(props, {
      syncCommand: ["placement-manage", "db", "sync"],
      connectionOption: { section: "placement_database", option: "connection" },
      registration: {
        serviceType: "placement",
        catalogName: "placement",
        endpointUrl: this.apiUrl(PORT5)
      }
    });
    this.database = deps.database;
    this.registration = deps.registration;
    const conf = this.renderConfig({
      DEFAULT: { debug: false, use_stderr: true },
      placement_database: { sync_on_startup: false },
      oslo_middleware: { enable_proxy_headers_parsing: true },
      ...deps.authtokenConfig
    });
    this.api = this.serveApi({
      schedulingKey: SchedulingKey.PLACEMENT_API,
      command: uwsgiCommand("placement-api", PORT5),
      port: PORT5,
      healthPath: "/",
      replicas: props.replicas,
      env: deps.env,
      files: { "placement.conf": conf }
    });
    deps.gate(this.api);
  }
};

// constructs/openstack-kit/node-config-templates.ts
var import_crypto3 = require("crypto");
var import_cdk8s8 = require("cdk8s");
var import_constructs6 = require("constructs");
var MAX_NODE_CONFIG_TEMPLATES = 64;
var TEMPLATE = {
  nodeSelector: required(Rules.labels(), "the labels of the nodes, e.g. { 'example.com/gpu': 'true' }"),
  config: required(
    osloValuesRule,
    "the options for those nodes, e.g. { DEFAULT: { cpu_allocation_ratio: 4 } }"
  )
};
var nodeConfigTemplatesRule = Rules.list(
  Rules.given((value, name) => propsProblems(value, TEMPLATE, { what: name, prefix: `${name}.` })),
  { max: MAX_NODE_CONFIG_TEMPLATES }
);
var MAX_NODE_CONFIG_CLASSES = 64;
var MAX_TERMS = 128;
function selectorsCanOverlap(a, b) {
  return Object.entries(a).every(([key, value]) => !(key in b) || b[key] === value);
}
function nodeConfigClasses(templates, scope = {}, ignore = /* @__PURE__ */ new Set()) {
  const candidates = templates.map((_, i) => i).filter((i) => !ignore.has(i));
  const required2 = scope.required ?? {};
  const classes = [];
  const visit = (position, chosen, selector) => {
    if (classes.length > MAX_NODE_CONFIG_CLASSES) return;
    if (position === candidates.length) {
      const found = classOf(chosen, selector);
      if (found) classes.push(found);
      return;
    }
    const index = candidates[position];
    const own = templates[index].nodeSelector;
    if (selectorsCanOverlap(selector, own)) visit(position + 1, [...chosen, index], { ...selector, ...own });
    visit(position + 1, chosen, selector);
  };
  const classOf = (chosen, selector) => {
    const others = [
      ...candidates.filter((i) => !chosen.includes(i)).map((i) => templates[i].nodeSelector),
      ...scope.excluded ?? []
    ];
    const exclusions = [];
    for (const other of others) {
      if (!selectorsCanOverlap(selector, other)) continue;
      const open = Object.fromEntries(Object.entries(other).filter(([key]) => !(key in selector)));
      if (Object.keys(open).length === 0) return void 0;
      exclusions.push(open);
    }
    const ownLabels = Object.fromEntries(
      Object.entries(selector).filter(([key, value]) => required2[key] !== value)
    );
    return {
      templates: chosen,
      nodeSelector: sortedRecord(selector),
      exclusions: minimal(exclusions.map(sortedRecord)),
      config: chosen.reduce((merged2, i) => mergeOslo(merged2, templates[i].config), {}),
      suffix: Object.keys(ownLabels).length === 0 ? "" : selectorHash(ownLabels)
    };
  };
  visit(0, [], { ...required2 });
  return classes.sort(
    (a, b) => a.templates.length - b.templates.length || a.templates.join(",").localeCompare(b.templates.join(","))
  );
}
function nodeConfigTemplateProblems(templates, schema2, file) {
  const problems = [];
  templates.forEach((template, i) => {
    const name = describeTemplate(template, i);
    problems.push(...osloProblems(file, schema2, template.config).map((p) => `${name}: ${p}`));
    problems.push(...reservedNodeLabelProblems(Object.keys(template.nodeSelector), `${name} nodeSelector`));
  });
  for (let i = 0; i < templates.length; i++) {
    for (let j = i + 1; j < templates.length; j++) {
      const [a, b] = [templates[i], templates[j]];
      if (!selectorsCanOverlap(a.nodeSelector, b.nodeSelector)) continue;
      for (const [section, options] of Object.entries(a.config)) {
        for (const [option, value] of Object.entries(options)) {
          const other = b.config[section]?.[option];
          if (other === void 0 || sameValue(value, other)) continue;
          problems.push(
            `${describeTemplate(a, i)} and ${describeTemplate(b, j)} can match the same node but set [${section}] ${option} to different values (${shown(value)} and ${shown(other)}); make their nodeSelectors exclusive (require one label with a different value in each) or set the option in one template only`
          );
        }
      }
    }
  }
  return problems;
}
function unusableTemplates(templates) {
  return new Set(
    templates.map((t, i) => reservedNodeLabelProblems(Object.keys(t.nodeSelector), "").length > 0 ? i : -1).filter((i) => i >= 0)
  );
}
function excludingTerms(placement2, exclusions) {
  const base = podScheduling(
    placement2
  ).affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.map(
    (t) => [...t.matchExpressions]
  );
  const folded = /* @__PURE__ */ new Map();
  const alternatives = [];
  for (const exclusion of exclusions) {
    const entries = Object.entries(exclusion);
    if (entries.length === 1) {
      const [key, value] = entries[0];
      folded.set(key, [...folded.get(key) ?? [], value]);
    } else {
      alternatives.push(entries.map(([key, value]) => ({ key, operator: "NotIn", values: [value] })));
    }
  }
  const always = [...folded.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, values]) => ({ key, operator: "NotIn", values: [...new Set(values)].sort() }));
  let terms = base.map((t) => [...t, ...always]);
  for (const choice of alternatives)
    terms = terms.flatMap((t) => choice.map((requirement) => [...t, requirement]));
  return terms;
}
var NodeConfiguredAgent = class extends import_constructs6.Construct {
  /** The components, one per class, in class order; the first is the unnamed one when it exists. */
  components;
  classes;
  constructor(scope, id, props) {
    super(scope, id);
    const templates = props.templates ?? [];
    const ignored = unusableTemplates(templates);
    this.classes = nodeConfigClasses(templates, props.nodes, ignored);
    const classes = this.classes;
    addCheck(this, () => [
      ...nodeConfigTemplateProblems(templates, props.schema, props.file),
      ...classes.length > MAX_NODE_CONFIG_CLASSES ? [
        `configTemplates give more than ${MAX_NODE_CONFIG_CLASSES} combinations that can meet on one node, each its own DaemonSet; make selectors exclusive (one label with different values) so fewer templates overlap`
      ] : []
    ]);
    this.components = classes.slice(0, MAX_NODE_CONFIG_CLASSES).map((nodeClass) => {
      const componentId = nodeClass.suffix ? `${id}-${nodeClass.suffix}` : id;
      const classPlacement = restrictedTo(props.placement, nodeClass.nodeSelector);
      const component = props.build(this, componentId, {
        placement: classPlacement,
        config: nodeClass.config,
        classInfo: nodeClass
      });
      if (nodeClass.exclusions.length > 0) excludeNodes(component, classPlacement, nodeClass, templates);
      return component;
    });
  }
  get dependencyTargets() {
    return this.components;
  }
};
var TERMS_PATH = "/spec/template/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms";
function excludeNodes(component, placement2, nodeClass, templates) {
  const terms = excludingTerms(placement2, nodeClass.exclusions);
  if (terms.length > MAX_TERMS) {
    addCheck(component, () => [
      `the class of configTemplates ${nodeClass.templates.map((i) => describeTemplate(templates[i], i)).join(", ") || "(none)"} needs ${terms.length} node affinity terms to keep off the nodes of overlapping templates; make selectors exclusive`
    ]);
    return;
  }
  for (const object of component.apiObjects) {
    if (["DaemonSet", "Deployment", "StatefulSet"].includes(object.kind)) {
      object.addJsonPatch(
        import_cdk8s8.JsonPatch.replace(
          TERMS_PATH,
          terms.map((matchExpressions) => ({ matchExpressions }))
        )
      );
    }
  }
}
function describeTemplate(template, index) {
  return `configTemplates[${index}] (nodeSelector ${shown(sortedRecord(template.nodeSelector))})`;
}
function sameValue(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}
function sortedRecord(record) {
  return Object.fromEntries(
    Object.keys(record).sort().map((k) => [k, record[k]])
  );
}
function selectorHash(selector) {
  return (0, import_crypto3.createHash)("sha256").update(JSON.stringify(sortedRecord(selector))).digest("hex").slice(0, 6);
}
function minimal(selectors) {
  const contains = (big, small) => Object.entries(small).every(([k, v]) => big[k] === v);
  const keyOf = (s) => JSON.stringify(s);
  return selectors.filter(
    (s, i) => selectors.findIndex((other) => keyOf(other) === keyOf(s)) === i && !selectors.some((other) => keyOf(other) !== keyOf(s) && contains(s, other))
  );
}

// constructs/openstack/neutron-agents.ts
var L3_AGENT_SCHEMA = {
  DEFAULT: {
    debug: "bool",
    interface_driver: "string",
    agent_mode: "string",
    ha_vrrp_health_check_interval: "int"
  },
  agent: { extensions: "list" }
};
var DHCP_AGENT_SCHEMA = {
  DEFAULT: {
    debug: "bool",
    interface_driver: "string",
    dhcp_driver: "string",
    enable_isolated_metadata: "bool",
    force_metadata: "bool",
    dnsmasq_dns_servers: "list",
    num_sync_threads: "int"
  }
};
var BGP_AGENT_SCHEMA = {
  DEFAULT: {
    debug: "bool",
    driver: "string",
    exposing_method: "string",
    bgp_AS: "string",
    bgp_router_id: "string",
    bgp_vrf: "string",
    reconcile_interval: "int",
    expose_tenant_networks: "bool",
    expose_ipv6_gua_tenant_networks: "bool"
  },
  ovn: { ovn_sb_connection: "string", ovn_nb_connection: "string" }
};
function specOf(wiring) {
  switch (wiring.kind) {
    case "l3":
      return {
        placement: placement(SchedulingKey.NETWORK_NEUTRON_L3_AGENT),
        command: ["neutron-l3-agent"],
        file: "l3_agent.ini",
        schema: L3_AGENT_SCHEMA,
        defaults: { DEFAULT: { debug: false, interface_driver: "openvswitch", agent_mode: "legacy" } }
      };
    case "dhcp":
      return {
        placement: placement(SchedulingKey.NETWORK_NEUTRON_DHCP_AGENT),
        command: ["neutron-dhcp-agent"],
        file: "dhcp_agent.ini",
        schema: DHCP_AGENT_SCHEMA,
        defaults: {
          DEFAULT: { debug: false, interface_driver: "openvswitch", enable_isolated_metadata: true }
        }
      };
    case "bgp":
      return {
        // The BGP agent exposes routes of the node's OVN chassis, so it needs the OVN agent next to
        // it and follows its maintenance state, like nova-compute.
        placement: requiringNoOvnMaintenance(placement(SchedulingKey.NETWORK_NEUTRON_BGP_AGENT)),
        command: ["ovn-bgp-agent", "--config-dir", "/etc/ovn-bgp-agent"],
        file: "bgp-agent.conf",
        schema: BGP_AGENT_SCHEMA,
        defaults: {
          DEFAULT: {
            debug: false,
            driver: "ovn_bgp_driver",
            exposing_method: "underlay",
            reconcile_interval: 300
          },
          ovn: { ovn_sb_connection: wiring.sbConnection, ovn_nb_connection: wiring.nbConnection }
        }
      };
  }
}
function neutronAgentConfigProblems(wiring) {
  const spec = specOf({ ...wiring, image: "", env: [], connectedTo: [] });
  return osloProblems(`${wiring.kind}Agent ${spec.file}`, spec.schema, wiring.options.config ?? {});
}
function neutronAgent(scope, id, wiring) {
  const spec = specOf(wiring);
  const base = mergeOslo(spec.defaults, wiring.options.config);
  const configDir = wiring.kind === "bgp" ? "/etc/ovn-bgp-agent" : "/etc/neutron/neutron.conf.d";
  const fileName = spec.file.replace(/\.ini$/, ".conf");
  const hostDirectories = [
    ["run-openvswitch", "/run/openvswitch"],
    ...wiring.kind === "bgp" ? [["run-frr", "/run/frr"]] : [["run-netns", "/run/netns"]]
  ];
  return new NodeConfiguredAgent(scope, id, {
    placement: spec.placement,
    templates: wiring.options.configTemplates,
    schema: spec.schema,
    file: spec.file,
    build: (classScope, classId, nodeClass) => new WorkerService(classScope, classId, {
      placement: nodeClass.placement,
      image: wiring.image,
      command: spec.command,
      workload: "DaemonSet",
      // Router, DHCP and BGP agents create network namespaces, devices, routes and firewall rules
      // on the host, so they run privileged in the host's network and PID namespaces.
      hostAgent: true,
      connectedTo: wiring.connectedTo,
      env: wiring.env,
      config: {
        mountPath: configDir,
        files: { [fileName]: renderOslo(mergeOslo(base, nodeClass.config)) }
      },
      volumes: hostDirectories.map(([name, path]) => ({
        name,
        hostPath: { path, type: "DirectoryOrCreate" }
      })),
      volumeMounts: hostDirectories.map(([name, path]) => ({
        name,
        mountPath: path,
        // Namespaces the agent creates must be visible to the host (and survive the agent's restart).
        ...name === "run-netns" ? { mountPropagation: "Bidirectional" } : {}
      }))
    })
  });
}

// constructs/kube/host-agent-daemon-set.ts
var import_cdk8s_plus_3316 = require("cdk8s-plus-33");
function hostAgentDaemonSet(component, pod) {
  const template = podTemplate(component, { ...pod, hostAgent: true });
  copySecretsForNodeAgent(component, template);
  return new JsonApiObject(component, "daemonset", import_cdk8s_plus_3316.k8s.KubeDaemonSet, {
    metadata: { name: component.componentName },
    spec: {
      selector: { matchLabels: component.selectorLabels },
      updateStrategy: {
        type: "RollingUpdate",
        rollingUpdate: { maxUnavailable: import_cdk8s_plus_3316.k8s.IntOrString.fromNumber(1) }
      },
      template
    }
  });
}
function hostDirectory(name, path, type2 = "DirectoryOrCreate") {
  return { name, hostPath: { path, type: type2 } };
}
function hostKernelModules() {
  return hostDirectory("lib-modules", "/lib/modules");
}

// constructs/openstack/neutron-ovn-agent.ts
var OVN_AGENT_SCHEMA = {
  ovn: {
    bridges: "list",
    bridge_mappings: "list",
    encap_type: "string",
    cms_options: "list",
    openflow_probe_interval: "int",
    remote_probe_interval: "int",
    monitor_all: "bool"
  }
};
var EXTERNAL_IDS = {
  bridge_mappings: "ovn-bridge-mappings",
  encap_type: "ovn-encap-type",
  cms_options: "ovn-cms-options",
  openflow_probe_interval: "ovn-openflow-probe-interval",
  remote_probe_interval: "ovn-remote-probe-interval",
  monitor_all: "ovn-monitor-all"
};
var METADATA_PORT = 8775;
var METADATA_PROXY_SOCKET = "/var/lib/neutron/metadata_proxy";
function neutronOvnAgent(scope, id, wiring) {
  const options = wiring.options;
  const metadata = options.metadataAgent ?? true;
  const base = mergeOslo({ ovn: { encap_type: "geneve" } }, options.config);
  return new NodeConfiguredAgent(scope, id, {
    placement: ovnAgentPlacement(wiring.dependantKeys),
    templates: options.configTemplates,
    schema: OVN_AGENT_SCHEMA,
    file: "ovn-agent",
    build: (classScope, classId, nodeClass) => {
      const component = new Component(classScope, classId, { placement: nodeClass.placement });
      const ovn = mergeOslo(base, nodeClass.config).ovn ?? {};
      const files = {
        external_ids: renderExternalIds(ovn, options.datapathType ?? "system"),
        bridges: renderBridges(ovn)
      };
      if (metadata)
        files["metadata-agent.conf"] = renderOslo(
          // The agent runs in the agents' namespace: the metadata API's name must say its namespace.
          metadataAgentConf(
            wiring.sbConnection,
            completeServiceHost(scope, options.novaMetadataHost ?? "nova-metadata")
          )
        );
      const config = configFiles(component, "/etc/ovn-agent", files);
      ovnAgentDaemonSet(component, wiring, config, metadata);
      return component;
    }
  });
}
function ovnAgentDaemonSet(component, wiring, config, metadata) {
  const datapathType = wiring.options.datapathType ?? "system";
  const userspaceTso = wiring.options.userspaceTso ?? false;
  const mount = (name, mountPath, extra = {}) => ({
    name,
    mountPath,
    ...extra
  });
  const ovsMounts = [
    mount("run-openvswitch", "/run/openvswitch"),
    mount("etc-openvswitch", "/etc/openvswitch"),
    mount("var-lib-openvswitch", "/var/lib/openvswitch")
  ];
  const exec = (command, initialDelaySeconds, failureThreshold = 3) => ({
    exec: { command: ["/bin/sh", "-c", command] },
    initialDelaySeconds,
    periodSeconds: 10,
    timeoutSeconds: 5,
    failureThreshold
  });
  const nodeEnv = [
    { name: "NODE_NAME", valueFrom: { fieldRef: { fieldPath: "spec.nodeName" } } },
    { name: "NODE_IP", valueFrom: { fieldRef: { fieldPath: "status.hostIP" } } },
    { name: "OVN_SB", value: wiring.sbConnection }
  ];
  const containers = [
    {
      name: "ovsdb-server",
      image: wiring.ovnImage,
      command: [
        "/bin/sh",
        "-ec",
        [
          "[ -e /etc/openvswitch/conf.db ] || ovsdb-tool create /etc/openvswitch/conf.db /usr/share/openvswitch/vswitch.ovsschema",
          "ovsdb-tool needs-conversion /etc/openvswitch/conf.db | grep -q no || ovsdb-tool convert /etc/openvswitch/conf.db /usr/share/openvswitch/vswitch.ovsschema",
          "exec ovsdb-server /etc/openvswitch/conf.db --remote=punix:/run/openvswitch/db.sock --pidfile=/run/openvswitch/ovsdb-server.pid -vconsole:info -vfile:off"
        ].join("\n")
      ],
      volumeMounts: ovsMounts,
      readinessProbe: exec("ovs-vsctl --timeout=5 show >/dev/null", 5),
      livenessProbe: exec("ovs-vsctl --timeout=5 show >/dev/null", 30, 6),
      resources: resourcesWithMemoryLimit({ cpu: "50m", memory: "128Mi" }, "512Mi")
    },
    {
      name: "ovs-vswitchd",
      image: wiring.ovnImage,
      command: [
        "/bin/sh",
        "-ec",
        [
          "until [ -S /run/openvswitch/db.sock ]; do sleep 1; done",
          // Read once at start-up: set (or reset, the database persists on the node) before the daemon starts.
          `ovs-vsctl --no-wait set open . other_config:userspace-tso-enable=${userspaceTso}`,
          "exec ovs-vswitchd unix:/run/openvswitch/db.sock --pidfile=/run/openvswitch/ovs-vswitchd.pid --mlockall -vconsole:info -vfile:off"
        ].join("\n")
      ],
      volumeMounts: [
        ...ovsMounts,
        mount("lib-modules", "/lib/modules", { readOnly: true }),
        // The userspace datapath's bridge ports are TAP devices.
        ...datapathType === "netdev" ? [mount("dev-net-tun", "/dev/net/tun")] : []
      ],
      readinessProbe: exec("ovs-appctl -t ovs-vswitchd version >/dev/null", 10),
      livenessProbe: exec("ovs-appctl -t ovs-vswitchd version >/dev/null", 30, 6),
      resources: resourcesWithMemoryLimit({ cpu: "100m", memory: "256Mi" }, "2Gi")
    },
    {
      name: "ovn-controller",
      image: wiring.ovnImage,
      env: nodeEnv,
      command: [
        "/bin/sh",
        "-ec",
        [
          "until ovs-vsctl --timeout=5 show >/dev/null 2>&1; do sleep 1; done",
          'ovs-vsctl --no-wait set open . external_ids:system-id="$NODE_NAME" external_ids:hostname="$NODE_NAME" external_ids:ovn-remote="$OVN_SB" external_ids:ovn-encap-ip="$NODE_IP"',
          // Settings of this node's configuration class: `key=value` lines, then provider bridges.
          'while IFS= read -r line; do [ -n "$line" ] && ovs-vsctl --no-wait set open . "external_ids:$line"; done < /etc/ovn-agent/external_ids',
          `while IFS=: read -r bridge port; do [ -n "$bridge" ] || continue; ovs-vsctl --may-exist add-br "$bridge" -- set bridge "$bridge" datapath_type=${datapathType}; [ -z "$port" ] || ovs-vsctl --may-exist add-port "$bridge" "$port"; done < /etc/ovn-agent/bridges`,
          "exec ovn-controller unix:/run/openvswitch/db.sock --pidfile=/run/ovn/ovn-controller.pid -vconsole:info -vfile:off"
        ].join("\n")
      ],
      volumeMounts: [
        ...ovsMounts,
        mount("run-ovn", "/run/ovn"),
        { ...config.mount, mountPath: "/etc/ovn-agent" }
      ],
      // Ready once connected to the southbound database: before that the node has no flows.
      readinessProbe: exec('ovn-appctl -t ovn-controller connection-status | grep -q "^connected"', 10),
      livenessProbe: exec("ovn-appctl -t ovn-controller version >/dev/null", 30, 6),
      resources: resourcesWithMemoryLimit({ cpu: "100m", memory: "256Mi" }, "1Gi")
    }
  ];
  if (metadata) {
    containers.push({
      name: "metadata-agent",
      image: wiring.neutronImage,
      command: ["neutron-ovn-metadata-agent"],
      env: [
        envFromSecret(osloEnvName("DEFAULT", "metadata_proxy_shared_secret"), wiring.metadataProxySecret)
      ],
      volumeMounts: [
        mount("run-openvswitch", "/run/openvswitch"),
        // Instances' metadata is served from a namespace per network; the host must see them.
        mount("run-netns", "/run/netns", { mountPropagation: "Bidirectional" }),
        mount("var-lib-neutron", "/var/lib/neutron"),
        { ...config.mount, mountPath: "/etc/neutron/neutron.conf.d" }
      ],
      // Ready once it serves the unix socket every network's haproxy forwards to (no process
      // listing: the image needs no procps).
      readinessProbe: exec(`test -S ${METADATA_PROXY_SOCKET}`, 10),
      livenessProbe: exec(`test -S ${METADATA_PROXY_SOCKET}`, 60, 6),
      resources: resourcesWithMemoryLimit({ cpu: "50m", memory: "256Mi" }, "1Gi")
    });
  }
  hostAgentDaemonSet(component, {
    annotations: { [CONFIG_CHECKSUM_ANNOTATION]: config.checksum },
    volumes: [
      config.volume,
      hostDirectory("run-openvswitch", "/run/openvswitch"),
      hostDirectory("etc-openvswitch", "/etc/openvswitch"),
      hostDirectory("var-lib-openvswitch", "/var/lib/openvswitch"),
      hostDirectory("run-ovn", "/run/ovn"),
      hostKernelModules(),
      ...datapathType === "netdev" ? [hostDirectory("dev-net-tun", "/dev/net/tun", "CharDevice")] : [],
      ...metadata ? [hostDirectory("run-netns", "/run/netns"), hostDirectory("var-lib-neutron", "/var/lib/neutron")] : []
    ],
    containers
  });
}
function metadataAgentConf(sbConnection, novaMetadataHost) {
  return {
    DEFAULT: {
      nova_metadata_host: novaMetadataHost,
      nova_metadata_port: METADATA_PORT,
      nova_metadata_protocol: "http",
      metadata_proxy_socket: METADATA_PROXY_SOCKET,
      metadata_workers: 2,
      use_stderr: true
    },
    ovn: { ovn_sb_connection: sbConnection },
    ovs: { ovsdb_connection: "unix:/run/openvswitch/db.sock" }
  };
}
function renderExternalIds(ovn, datapathType) {
  const lines = Object.keys(ovn).filter((option) => option in EXTERNAL_IDS).map((option) => {
    const value = ovn[option];
    return `${EXTERNAL_IDS[option]}=${Array.isArray(value) ? value.join(",") : String(value)}`;
  });
  return `${[...lines, `ovn-bridge-datapath-type=${datapathType}`].sort().join("\n")}
`;
}
function ovsDatapathProblems(options) {
  return options.userspaceTso === true && options.datapathType !== "netdev" ? [
    `ovnAgent.userspaceTso applies to the userspace datapath only, but ovnAgent.datapathType is ${JSON.stringify(options.datapathType ?? "system")}; set ovnAgent.datapathType: 'netdev' or drop userspaceTso`
  ] : [];
}
function renderBridges(ovn) {
  const bridges = ovn.bridges;
  return Array.isArray(bridges) && bridges.length > 0 ? `${bridges.join("\n")}
` : "";
}

// constructs/openstack/neutron.ts
var PORT6 = 9696;
var NEUTRON_AGENT_OPTIONS = Rules.object({
  config: osloValuesRule,
  configTemplates: nodeConfigTemplatesRule
});
var NEUTRON = {
  image: "neutron",
  operatorKey: SchedulingKey.OPERATOR_NEUTRON,
  inputs: {
    ...commonInputHints("keystone", "database", "messaging", "cache"),
    ovsdb: "the OVN databases (new OvsdbCluster(cloud, 'ovsdb'))"
  },
  // Agent configuration and templates are checked against their schemas at synthesis.
  props: {
    ...COMMON_INPUT_RULES,
    ovsdb: serviceRule("the OVN databases (new OvsdbCluster(cloud, 'ovsdb'))"),
    apiReplicas: Rules.count({ min: 1, max: 20 }),
    northdReplicas: Rules.count({ min: 1, max: 5 }),
    ovnAgent: Rules.object({
      datapathType: Rules.oneOf("system", "netdev"),
      userspaceTso: Rules.bool(),
      dependantKeys: Rules.list(Rules.checkedElsewhere()),
      config: osloValuesRule,
      configTemplates: nodeConfigTemplatesRule,
      metadataAgent: Rules.bool(),
      novaMetadataHost: Rules.nonEmptyText(),
      image: Rules.image()
    }),
    l3Agent: NEUTRON_AGENT_OPTIONS,
    dhcpAgent: NEUTRON_AGENT_OPTIONS,
    bgpAgent: NEUTRON_AGENT_OPTIONS,
    ovnImage: Rules.image(),
    bgpAgentImage: Rules.image()
  }
};
var Neutron = class extends OpenStackApiService {
  api;
  northd;
  /** The OVN agent: one DaemonSet per class of per-node configuration. */
  ovnAgent;
  /** The keys the OVN agent tolerates and schedules on besides its own (the union rule). */
  ovnAgentDependantKeys;
  l3Agent;
  dhcpAgent;
  bgpAgent;
  registration;
  database;
  messaging;
  /** Shared by the metadata agent and Nova's metadata API, which signs and checks forwarded requests. */
  metadataProxySecret;
  /** Where the metadata agent forwards instance metadata requests. */
  novaMetadataHost;
  constructor(scope, id, props) {
    super(scope, id, props, NEUTRON);
    const { image, operatorKey } = this;
    const cloud = Cloud.of(this);
    const ovnImage = props.ovnImage ?? cloud.image("ovn", OVN_IMAGE_TAG);
    const ovsdb = props.ovsdb;
    const ovnOptions = props.ovnAgent ?? {};
    this.novaMetadataHost = ovnOptions.novaMetadataHost ?? "nova-metadata";
    const agentWiring = (kind, options) => ({
      kind,
      options,
      sbConnection: ovsdb.sb.connection,
      nbConnection: ovsdb.nb.connection
    });
    addCheck(this, () => [
      ...props.l3Agent ? neutronAgentConfigProblems(agentWiring("l3", props.l3Agent)) : [],
      ...props.dhcpAgent ? neutronAgentConfigProblems(agentWiring("dhcp", props.dhcpAgent)) : [],
      ...props.bgpAgent ? neutronAgentConfigProblems(agentWiring("bgp", props.bgpAgent)) : [],
      ...osloProblems("ovnAgent config", OVN_AGENT_SCHEMA, ovnOptions.config ?? {}),
      ...ovsDatapathProblems(ovnOptions)
    ]);
    const deps = this.dependencies(props, {
      syncCommand: ["neutron-db-manage", "upgrade", "heads"],
      registration: {
        serviceType: "network",
        catalogName: "neutron",
        endpointUrl: this.apiUrl(PORT6)
      }
    });
    this.database = deps.database;
    this.messaging = deps.messaging;
    this.registration = deps.registration;
    this.metadataProxySecret = new GeneratedSecret(this, "metadata-secret", {
      operatorKey,
      keys: ["secret"]
    });
    const conf = this.renderConfig(
      apiServiceDefaults({
        DEFAULT: {
          core_plugin: "ml2",
          service_plugins: ["ovn-router"],
          notify_nova_on_port_status_changes: true,
          notify_nova_on_port_data_changes: true
        },
        // Port events go to Nova with Neutron's own service user, found through the catalogue.
        nova: { ...serviceUserAuthConfig(props.keystone, this.registration), endpoint_type: "internal" },
        ml2: {
          type_drivers: ["geneve", "flat", "vlan"],
          tenant_network_types: ["geneve"],
          mechanism_drivers: ["ovn"],
          extension_drivers: ["port_security"],
          overlay_ip_version: 4
        },
        ml2_type_geneve: { vni_ranges: ["1:65536"], max_header_size: 38 },
        ovn: {
          ovn_nb_connection: ovsdb.nb.connection,
          ovn_sb_connection: ovsdb.sb.connection,
          ovn_metadata_enabled: ovnOptions.metadataAgent ?? true,
          enable_distributed_floating_ip: false
        },
        securitygroup: { enable_security_group: true },
        oslo_concurrency: { lock_path: "/tmp/neutron" },
        ...deps.authtokenConfig
      })
    );
    this.api = this.serveApi({
      schedulingKey: SchedulingKey.NETWORK_API,
      command: ["neutron-server"],
      port: PORT6,
      healthPath: "/",
      replicas: props.apiReplicas,
      env: [
        ...deps.env,
        serviceUserPasswordEnv("nova", this.registration),
        // The files neutron's WSGI entry point (neutron.wsgi.api) loads, instead of its default
        // neutron.conf + plugins/ml2/ml2_conf.ini: Stackwright puts [ml2] and [ovn] in neutron.conf.
        { name: "OS_NEUTRON_CONFIG_FILES", value: "neutron.conf" }
      ],
      files: { "neutron.conf": conf },
      requests: { cpu: "200m", memory: "512Mi" }
    });
    deps.gate(this.api).dependsOn(ovsdb.nb, "ready").dependsOn(ovsdb.sb, "ready");
    this.northd = new WorkerService(this, "northd", {
      placement: placement(SchedulingKey.NETWORK_NEUTRON_NORTHD),
      image: ovnImage,
      command: [
        "/bin/sh",
        "-ec",
        `exec ovn-northd --ovnnb-db="${ovsdb.nb.connection}" --ovnsb-db="${ovsdb.sb.connection}" --pidfile=/var/run/ovn/ovn-northd.pid --unixctl=/var/run/ovn/ovn-northd.ctl -vconsole:info -vfile:off`
      ],
      replicas: props.northdReplicas ?? 2,
      connectedTo: [ovsdb.nb.port, ovsdb.sb.port],
      volumes: [{ name: "run", emptyDir: {} }],
      volumeMounts: [{ name: "run", mountPath: "/var/run/ovn" }]
    });
    this.northd.dependsOn(ovsdb.nb, "ready").dependsOn(ovsdb.sb, "ready");
    this.ovnAgentDependantKeys = [
      .../* @__PURE__ */ new Set([
        ...ovnOptions.dependantKeys ?? [SchedulingKey.COMPUTE_HYPERVISOR],
        ...props.bgpAgent ? [SchedulingKey.NETWORK_NEUTRON_BGP_AGENT] : []
      ])
    ];
    this.ovnAgent = neutronOvnAgent(this, "ovn-agent", {
      options: ovnOptions,
      dependantKeys: this.ovnAgentDependantKeys,
      ovnImage: ovnOptions.image ?? ovnImage,
      neutronImage: image,
      sbConnection: ovsdb.sb.connection,
      metadataProxySecret: this.metadataProxySecret.ref("secret")
    });
    for (const component of this.ovnAgent.components) {
      component.dependsOn(ovsdb.sb, "ready").dependsOn(this.northd, "ready");
      if (ovnOptions.metadataAgent ?? true) component.dependsOn(this.metadataProxySecret, "completed");
    }
    const rpcAgent = (kind, options) => {
      const agent = neutronAgent(this, `${kind}-agent`, {
        ...agentWiring(kind, options),
        image,
        env: this.messaging.transportUrlEnv(),
        connectedTo: [props.messaging.port]
      });
      for (const component of agent.components) {
        component.dependsOn(props.messaging, "ready").dependsOn(this.messaging.init, "completed").dependsOn(this.api, "ready");
      }
      return agent;
    };
    if (props.l3Agent) this.l3Agent = rpcAgent("l3", props.l3Agent);
    if (props.dhcpAgent) this.dhcpAgent = rpcAgent("dhcp", props.dhcpAgent);
    if (props.bgpAgent) {
      this.bgpAgent = neutronAgent(this, "bgp-agent", {
        ...agentWiring("bgp", props.bgpAgent),
        image: props.bgpAgentImage ?? cloud.image("ovn-bgp-agent"),
        env: [],
        connectedTo: [ovsdb.sb.port]
      });
      for (const component of this.bgpAgent.components) {
        component.dependsOn(this.ovnAgent, "same-node").dependsOn(ovsdb.sb, "ready");
      }
    }
  }
};

// constructs/openstack/nova-cell.ts
var import_constructs7 = require("constructs");

// constructs/openstack/nova-compute.ts
function hypervisorPlacement() {
  return requiringNoOvnMaintenance(placement(SchedulingKey.COMPUTE_HYPERVISOR));
}
var SHARED_HOST_DIRECTORIES = [
  ["var-lib-nova", "/var/lib/nova"],
  // `instances_path`, which nova-compute statvfs()s for its disk inventory before it creates
  // anything there: a fresh node has no such directory and reported no resources at all.
  ["var-lib-nova-instances", "/var/lib/nova/instances"],
  ["var-lib-libvirt", "/var/lib/libvirt"],
  ["run-libvirt", "/run/libvirt"]
];
var LIBVIRT_QEMU_CONF = [
  "namespaces = [ ]",
  'security_driver = "none"',
  'stdio_handler = "logd"',
  ""
].join("\n");
function hostDevice(name, path) {
  return hostDirectory(name, path, "CharDevice");
}
function libvirtDevices(virtType) {
  const devices = [
    ["dev-net-tun", "/dev/net/tun"],
    ...virtType === "kvm" ? [["dev-kvm", "/dev/kvm"]] : []
  ];
  return devices.map(([name, path]) => [hostDevice(name, path), { name, mountPath: path }]);
}
function libvirtDaemon(scope, id, props) {
  const component = new Component(scope, id, { placement: hypervisorPlacement() });
  const exec = (command, initialDelaySeconds) => ({
    exec: { command },
    initialDelaySeconds,
    periodSeconds: 10,
    timeoutSeconds: 30,
    failureThreshold: 6
  });
  const virsh = ["virsh", "-c", "qemu:///system", "version"];
  const virtlogdSocket = ["test", "-S", "/run/libvirt/virtlogd-sock"];
  const config = configFiles(component, "/etc/libvirt", { "qemu.conf": LIBVIRT_QEMU_CONF });
  const devices = libvirtDevices(props.virtType);
  const shared = SHARED_HOST_DIRECTORIES.map(([name, mountPath]) => ({ name, mountPath }));
  hostAgentDaemonSet(component, {
    forcedDownscale: props.forcedDownscale,
    annotations: { [CONFIG_CHECKSUM_ANNOTATION]: config.checksum },
    volumes: [
      config.volume,
      ...SHARED_HOST_DIRECTORIES.map(([name, path]) => hostDirectory(name, path)),
      hostDirectory("etc-libvirt-qemu", "/etc/libvirt/qemu"),
      hostDirectory("run-openvswitch", "/run/openvswitch"),
      hostDirectory("dev", "/dev", "Directory"),
      ...devices.map(([volume]) => volume),
      hostDirectory("sys-fs-cgroup", "/sys/fs/cgroup", "Directory"),
      hostKernelModules()
    ],
    containers: [
      {
        name: "libvirtd",
        image: props.image,
        // Unix sockets only (nova-compute's qemu:///system). `--listen` opens TLS on 16514 by default
        // and libvirtd refuses to start without its certificates (`Cannot read CA certificate
        // '/etc/pki/CA/cacert.pem'`); live migration between hypervisors needs that transport
        // designed (certificates, or SSH), which no prop offers yet.
        command: ["libvirtd"],
        volumeMounts: [
          ...shared,
          ...config.mounts,
          { name: "etc-libvirt-qemu", mountPath: "/etc/libvirt/qemu" },
          // libvirt plugs an instance's tap into br-int itself (`ovs-vsctl`, the interface XML Nova
          // writes for Open vSwitch ports), through the node's Open vSwitch database socket.
          { name: "run-openvswitch", mountPath: "/run/openvswitch" },
          { name: "dev", mountPath: "/dev" },
          ...devices.map(([, mount]) => mount),
          { name: "sys-fs-cgroup", mountPath: "/sys/fs/cgroup" },
          { name: "lib-modules", mountPath: "/lib/modules", readOnly: true }
        ],
        readinessProbe: exec(virsh, 10),
        livenessProbe: exec(virsh, 60),
        resources: resourcesWithMemoryLimit({ cpu: "100m", memory: "256Mi" }, "2Gi")
      },
      {
        name: "virtlogd",
        image: props.image,
        command: ["virtlogd"],
        volumeMounts: shared,
        readinessProbe: exec(virtlogdSocket, 5),
        livenessProbe: exec(virtlogdSocket, 30),
        resources: resourcesWithMemoryLimit({ cpu: "10m", memory: "32Mi" }, "256Mi")
      }
    ]
  });
  return component;
}
function libvirtOptions(virtType) {
  return { libvirt: virtType === "qemu" ? { virt_type: "qemu", cpu_mode: "none" } : { virt_type: "kvm" } };
}
function novaCompute(scope, id, wiring) {
  return new NodeConfiguredAgent(scope, id, {
    placement: hypervisorPlacement(),
    templates: wiring.options.configTemplates,
    nodes: wiring.nodes,
    schema: wiring.schema,
    file: "nova.conf",
    build: (classScope, classId, nodeClass) => {
      const service = new WorkerService(classScope, classId, {
        placement: nodeClass.placement,
        image: wiring.image,
        command: ["nova-compute"],
        workload: "DaemonSet",
        // nova-compute plugs instance ports into the host's Open vSwitch, attaches volumes (iSCSI,
        // RBD) and manages instance files next to libvirt: host namespaces and privileges.
        hostAgent: true,
        forcedDownscale: wiring.options.forcedDownscale,
        connectedTo: [wiring.messagingPort],
        // The address instances' consoles and migrations use: the node's, read when the pod starts.
        // The service's host name is the node's name, which the OVN agent also gives the node's
        // chassis (`external_ids:hostname`): Neutron binds an instance's port to the chassis whose
        // name is the instance's host, and a host network's own host name need not be the node's.
        env: [
          { name: osloEnvName("DEFAULT", "my_ip"), valueFrom: { fieldRef: { fieldPath: "status.hostIP" } } },
          { name: osloEnvName("DEFAULT", "host"), valueFrom: { fieldRef: { fieldPath: "spec.nodeName" } } },
          ...wiring.env
        ],
        config: {
          mountPath: "/etc/nova",
          files: { "nova.conf": renderOslo(mergeOslo(wiring.config, nodeClass.config), wiring.schema) }
        },
        volumes: [
          ...SHARED_HOST_DIRECTORIES.map(([name, path]) => hostDirectory(name, path)),
          hostDirectory("run-openvswitch", "/run/openvswitch"),
          hostDirectory("dev", "/dev", "Directory"),
          hostKernelModules()
        ],
        volumeMounts: [
          ...SHARED_HOST_DIRECTORIES.map(([name, mountPath]) => ({ name, mountPath })),
          { name: "run-openvswitch", mountPath: "/run/openvswitch" },
          { name: "dev", mountPath: "/dev" },
          { name: "lib-modules", mountPath: "/lib/modules", readOnly: true }
        ],
        requests: { cpu: "200m", memory: "512Mi" }
      });
      return service;
    }
  });
}

// constructs/openstack/nova-database.ts
function novaDatabase(scope, id, props) {
  const { api = false, ...chain } = props;
  return new ServiceDatabase(scope, id, {
    ...chain,
    syncCommand: api ? ["nova-manage", "api_db", "sync"] : ["nova-manage", "db", "sync", "--local_cell"],
    connectionOption: api ? { section: "api_database", option: "connection" } : void 0
  });
}

// constructs/openstack/nova-cell.ts
var VNC_PORT = 6080;
var NovaCell = class extends import_constructs7.Construct {
  /** `cell1`, `cell2`, … */
  name;
  database;
  messaging;
  conductor;
  vncProxy;
  /** nova-compute of the cell's hypervisors, one DaemonSet per class of per-node configuration. */
  compute;
  /** The servers the cell's database and vhost live on. */
  databaseEndpoint;
  messagingEndpoint;
  constructor(scope, id, props) {
    super(scope, id);
    const { image, operatorKey, controlFiles, peers } = props;
    this.name = `cell${props.index + 1}`;
    const prefix = props.index === 0 ? "" : `${this.name}-`;
    this.databaseEndpoint = props.database;
    this.messagingEndpoint = props.messaging;
    this.database = novaDatabase(this, `${this.name}-db`, {
      database: props.database,
      operatorKey,
      image,
      databaseName: `nova_${this.name}`
    });
    this.messaging = new ServiceMessaging(this, `${this.name}-mq`, {
      messaging: props.messaging,
      operatorKey,
      vhost: `${props.serviceName}-${this.name}`
    });
    this.conductor = new WorkerService(this, `${prefix}conductor`, {
      placement: placement(SchedulingKey.COMPUTE_NOVA_CONDUCTOR, SchedulingKey.COMPUTE_NOVA_ANY_SERVICE),
      image,
      command: ["nova-conductor"],
      replicas: props.conductorReplicas ?? 2,
      connectedTo: [props.messaging.port, props.database.port],
      env: [
        ...props.conductorEnv ?? [],
        ...this.database.connectionEnv("CELL_DB_PASSWORD"),
        ...this.messaging.transportUrlEnv(),
        ...props.servicePasswords
      ],
      config: controlFiles
    });
    this.conductor.dependsOn(peers.keystone, "ready").dependsOn(peers.cache, "ready").dependsOn(props.database, "ready").dependsOn(props.messaging, "ready").dependsOn(this.database.sync, "completed").dependsOn(this.messaging.init, "completed").dependsOn(peers.placement, "ready");
    const runtimePeers = [peers.glance, peers.neutron, ...peers.cinder ? [peers.cinder] : []];
    for (const peer of runtimePeers) this.conductor.dependsOn(peer, "runtime");
    this.vncProxy = new ApiService(this, `${prefix}vnc`, {
      // Seed 000 lists the VNC proxy among the "Nova supporting services", whose group key is
      // COMPUTE_NOVA_ANY_SERVICE; without it, nodes labelled for Nova's services would not take it.
      placement: placement(SchedulingKey.COMPUTE_VNC, SchedulingKey.COMPUTE_NOVA_ANY_SERVICE),
      image,
      command: ["nova-novncproxy"],
      port: VNC_PORT,
      healthPath: "/vnc_lite.html",
      replicas: props.vncReplicas,
      env: [...this.database.connectionEnv("CELL_DB_PASSWORD"), ...this.messaging.transportUrlEnv()],
      config: controlFiles,
      requests: { cpu: "50m", memory: "128Mi" }
    });
    this.vncProxy.dependsOn(this.database.sync, "completed").dependsOn(props.database, "ready");
    const computeConfig = mergeOslo(
      mergeOslo(props.computeConfig, {
        vnc: {
          enabled: true,
          server_listen: "0.0.0.0",
          server_proxyclient_address: "$my_ip",
          novncproxy_base_url: `${this.vncProxy.internalUrl}/vnc_lite.html`
        }
      }),
      props.compute.config
    );
    this.compute = novaCompute(this, `${prefix}compute`, {
      options: props.compute,
      image: props.compute.image ?? image,
      nodes: props.nodes,
      schema: props.schema,
      config: computeConfig,
      env: [...this.messaging.transportUrlEnv(), ...props.servicePasswords],
      messagingPort: props.messaging.port
    });
    for (const component of this.compute.components) {
      component.dependsOn(peers.libvirt, "same-node").dependsOn(peers.ovnAgent, "same-node").dependsOn(props.messaging, "ready").dependsOn(this.messaging.init, "completed").dependsOn(this.conductor, "ready").dependsOn(peers.placement, "ready").dependsOn(peers.keystone, "ready");
      for (const peer of runtimePeers) component.dependsOn(peer, "runtime");
    }
  }
  /** The conductor and the console proxy start once the cell is recorded in the API database. */
  mappedBy(cellMapping) {
    this.conductor.dependsOn(cellMapping, "completed");
    this.vncProxy.dependsOn(cellMapping, "completed");
  }
};

// constructs/openstack/nova-cell-mapping.ts
function cellMappingJob(scope, id, props) {
  const { apiDatabase, cell0Database, cells } = props;
  return new JobComponent(scope, id, {
    operatorKey: props.operatorKey,
    image: props.image,
    command: ["/bin/sh", "-ec", cellMappingScript(cells.map((c) => c.name))],
    extraEnv: [
      ...apiDatabase.connectionEnv("API_DB_PASSWORD"),
      envFromSecret("CELL0_DB_PASSWORD", cell0Database.password),
      // map_cell0 takes cell0's URL only as an option, or derives it from [database] connection
      // by adding `_cell0` to the database's name: it gets the URL it derives cell0's from.
      {
        name: "CELL0_DERIVED_FROM",
        value: cell0Database.connectionUrl(
          "CELL0_DB_PASSWORD",
          cell0Database.databaseName.replace(/_cell0$/, "")
        )
      },
      ...cells.flatMap((c) => {
        const upper = c.name.toUpperCase();
        return [
          envFromSecret(`${upper}_DB_PASSWORD`, c.database.password),
          { name: `${upper}_DATABASE`, value: c.database.connectionUrl(`${upper}_DB_PASSWORD`) },
          envFromSecret(`${upper}_MQ_PASSWORD`, c.messaging.password),
          { name: `${upper}_TRANSPORT`, value: c.messaging.transportUrl(`${upper}_MQ_PASSWORD`) }
        ];
      })
    ]
  });
}
function cellMappingScript(cells) {
  const lines = ['OS_DATABASE__CONNECTION="$CELL0_DERIVED_FROM" nova-manage cell_v2 map_cell0'];
  for (const name of cells) {
    const cell = shellWord(name, "cell name");
    const upper = cell.toUpperCase();
    const urls = `OS_DATABASE__CONNECTION="$${upper}_DATABASE" OS_DEFAULT__TRANSPORT_URL="$${upper}_TRANSPORT"`;
    lines.push(
      `uuid=$(nova-manage cell_v2 list_cells | awk -F'|' '{ gsub(/ /, "", $2); gsub(/ /, "", $3) } $2 == "${cell}" { print $3 }')`,
      `if [ -n "$uuid" ]; then ${urls} nova-manage cell_v2 update_cell --cell_uuid "$uuid" --name ${cell}; else ${urls} nova-manage cell_v2 create_cell --name ${cell} --verbose; fi`
    );
  }
  return lines.join("\n");
}

// constructs/openstack/nova-config.ts
function novaServicePasswords(registration) {
  return [
    serviceUserPasswordEnv("placement", registration),
    serviceUserPasswordEnv("neutron", registration),
    serviceUserPasswordEnv("service_user", registration)
  ];
}
function novaCommonConfig(keystone, registration) {
  const serviceUser = (section) => ({
    [section]: { ...serviceUserAuthConfig(keystone, registration), valid_interfaces: ["internal"] }
  });
  const serviceUserAuth = Object.fromEntries(
    Object.entries(serviceUserAuthConfig(keystone, registration)).filter(([o]) => o !== "region_name")
  );
  return {
    DEFAULT: { debug: false, use_stderr: true },
    cinder: { os_region_name: keystone.region },
    glance: { valid_interfaces: ["internal"] },
    oslo_concurrency: { lock_path: "/tmp/nova" },
    // Nothing consumes Nova's notifications (see docs/configuration.md): none are sent.
    oslo_messaging_notifications: { driver: ["noop"] },
    ...serviceUser("placement"),
    ...serviceUser("neutron"),
    // Required since 2023.1: Nova sends its own token with the user's to Cinder, Neutron and
    // Glance, which accept long operations (volume detach, port binding) only with it.
    service_user: { ...serviceUserAuth, send_service_user_token: true }
  };
}

// constructs/openstack/nova.ts
var API_PORT = 8774;
var METADATA_PORT2 = 8775;
var MAX_CELLS = 100;
var NOVA = {
  image: "nova",
  operatorKey: SchedulingKey.OPERATOR_NOVA,
  inputs: {
    ...commonInputHints("keystone", "database", "messaging", "cache"),
    placement: "the Placement service (new Placement(...))",
    glance: "the Glance service",
    neutron: "the Neutron service"
  },
  props: {
    ...COMMON_INPUT_RULES,
    placement: serviceRule("the Placement service"),
    glance: serviceRule("the Glance service"),
    neutron: serviceRule("the Neutron service"),
    cinder: serviceRule("the Cinder service"),
    // A count or a list; its range is checked at synthesis (cellProblems), the count before any cell is built.
    cells: Rules.either(
      Array.isArray,
      Rules.list(
        Rules.object({
          database: databaseRule,
          messaging: messagingRule,
          conductorReplicas: Rules.checkedElsewhere()
        })
      ),
      Rules.checkedElsewhere()
    ),
    // At the boundary: the cells are placed with this label while Nova is built.
    cellNodeLabel: Rules.given(
      (value, name) => typeof value === "string" ? [...labelKeyProblems(value, name), ...reservedNodeLabelProblems([value], name)] : [`${name} must be a string, got ${shown(value)}`]
    ),
    apiReplicas: Rules.count({ min: 1, max: 20 }),
    metadataReplicas: Rules.count({ min: 1, max: 20 }),
    schedulerReplicas: Rules.checkedElsewhere(),
    conductorReplicas: Rules.checkedElsewhere(),
    vncReplicas: Rules.count({ min: 1, max: 20 }),
    compute: Rules.object({
      config: osloValuesRule,
      configTemplates: nodeConfigTemplatesRule,
      forcedDownscale: Rules.bool(),
      libvirtImage: Rules.image(),
      image: Rules.image(),
      virtType: Rules.oneOf("kvm", "qemu")
    })
  }
};
var Nova = class extends OpenStackApiService {
  api;
  metadata;
  scheduler;
  /** The cells in order; cell 1's conductor is also the super-conductor. */
  cells;
  libvirt;
  /** nova-compute of every cell (one agent per cell), for same-node dependants such as Ceilometer's compute agent. */
  compute;
  apiDatabase;
  cell0Database;
  /** Records cell0 and every cell (database and transport URL) in the API database. */
  cellMapping;
  /** `nova-manage cell_v2 discover_hosts`: maps the hypervisors to their cells. */
  cellSetup;
  registration;
  constructor(scope, id, props) {
    super(scope, id, props, NOVA);
    const cellOptions = novaCellOptions(props.cells);
    addCheck(this, () => this.propsProblems(props, cellOptions));
    this.apiDatabase = this.databaseChain(props, "api-db", "nova_api", true);
    this.cell0Database = this.databaseChain(props, "cell0-db", "nova_cell0");
    this.registration = new KeystoneRegistration(this, "ks-register", {
      keystone: props.keystone,
      operatorKey: this.operatorKey,
      serviceType: "compute",
      catalogName: "nova",
      endpointUrl: this.apiUrl(API_PORT, "/v2.1")
    });
    const servicePasswords = novaServicePasswords(this.registration);
    const common2 = novaCommonConfig(props.keystone, this.registration);
    const controlFiles = this.controlPlaneFiles(props, common2);
    const virtType = props.compute?.virtType ?? "kvm";
    const computeConfig = computeNovaConf(this.configWith(common2), virtType);
    this.libvirt = libvirtDaemon(this, "libvirt", {
      image: props.compute?.libvirtImage ?? Cloud.of(this).image("libvirt"),
      forcedDownscale: props.compute?.forcedDownscale ?? false,
      virtType
    });
    this.cells = this.buildCells(props, cellOptions, { controlFiles, computeConfig, servicePasswords });
    this.compute = this.cells.map((c) => c.compute);
    this.cellMapping = this.mapCells();
    const first = this.cells[0];
    const apiLevel = (component) => this.apiLevelEdges(component, props);
    apiLevel(first.conductor);
    const apiEnv = [
      ...this.apiDatabase.connectionEnv("API_DB_PASSWORD"),
      ...this.cell0Database.connectionEnv("CELL0_DB_PASSWORD"),
      ...first.messaging.transportUrlEnv()
    ];
    const neutron = props.neutron;
    this.api = this.serveApi({
      schedulingKey: SchedulingKey.COMPUTE_API,
      command: uwsgiCommand("nova-api-wsgi", API_PORT),
      port: API_PORT,
      healthPath: "/",
      replicas: props.apiReplicas,
      env: [...apiEnv, ...keystoneAuthtokenEnv(this.registration), ...servicePasswords],
      files: controlFiles.files,
      requests: { cpu: "200m", memory: "512Mi" }
    });
    apiLevel(this.api).dependsOn(props.placement, "runtime").dependsOn(props.glance, "runtime").dependsOn(neutron, "runtime");
    if (props.cinder) this.api.dependsOn(props.cinder, "runtime");
    this.metadata = new ApiService(this, "metadata", {
      placement: placement(SchedulingKey.COMPUTE_METADATA_API, SchedulingKey.ANY_API),
      image: this.image,
      command: uwsgiCommand("nova-metadata-wsgi", METADATA_PORT2),
      port: METADATA_PORT2,
      healthPath: "/",
      replicas: props.metadataReplicas,
      env: [
        ...apiEnv,
        ...keystoneAuthtokenEnv(this.registration),
        ...servicePasswords,
        envFromSecret(
          osloEnvName("neutron", "metadata_proxy_shared_secret"),
          neutron.metadataProxySecret.ref("secret")
        )
      ],
      config: controlFiles
    });
    apiLevel(this.metadata).dependsOn(neutron.metadataProxySecret, "completed").dependsOn(neutron, "runtime");
    this.scheduler = new WorkerService(this, "scheduler", {
      placement: placement(SchedulingKey.COMPUTE_NOVA_SCHEDULER, SchedulingKey.COMPUTE_NOVA_ANY_SERVICE),
      image: this.image,
      command: ["nova-scheduler"],
      replicas: props.schedulerReplicas ?? 2,
      connectedTo: [first.messagingEndpoint.port],
      env: [...apiEnv, ...servicePasswords],
      config: controlFiles
    });
    apiLevel(this.scheduler).dependsOn(props.placement, "ready");
    this.cellSetup = new JobComponent(this, "cell-setup", {
      operatorKey: this.operatorKey,
      image: this.image,
      command: ["nova-manage", "cell_v2", "discover_hosts", "--verbose"],
      extraEnv: this.apiDatabase.connectionEnv("API_DB_PASSWORD")
    });
    this.cellSetup.dependsOn(this.api, "ready");
    for (const agent of this.compute) this.cellSetup.dependsOn(agent, "ready");
    this.wireNeutron(neutron);
  }
  /** What only the whole props can tell: the compute config, the cells, the replicas, the OVN agent's keys. */
  propsProblems(props, cellOptions) {
    const compute = props.compute ?? {};
    const neutron = props.neutron;
    return [
      ...osloProblems("compute nova.conf", this.schema, compute.config ?? {}),
      ...["config", "compute.config"].filter(
        (name) => (name === "config" ? props.config : compute.config)?.libvirt?.virt_type !== void 0
      ).map(
        (name) => `${name} sets [libvirt] virt_type; set compute.virtType instead (it also picks the devices libvirt needs)`
      ),
      ...cellProblems(props.cells),
      ...rangeProblems("schedulerReplicas", props.schedulerReplicas, { min: 1, max: 20 }),
      ...rangeProblems("conductorReplicas", props.conductorReplicas, { min: 1, max: 20 }),
      ...cellOptions.flatMap(
        (c, i) => rangeProblems(`cells[${i}].conductorReplicas`, c.conductorReplicas, { min: 1, max: 20 })
      ),
      ...neutron.ovnAgentDependantKeys.includes(SchedulingKey.COMPUTE_HYPERVISOR) ? [] : [
        `nova-compute runs on ${SchedulingKey.COMPUTE_HYPERVISOR} nodes, but ${neutron.node.path}'s OVN agent does not (its dependantKeys are ${neutron.ovnAgentDependantKeys.join(", ") || "empty"}); add SchedulingKey.COMPUTE_HYPERVISOR to ovnAgent.dependantKeys`
      ]
    ];
  }
  /** One database chain (its own user and password) on the cloud's database. */
  databaseChain(props, chainId, databaseName, api) {
    return novaDatabase(this, chainId, {
      database: props.database,
      operatorKey: this.operatorKey,
      image: this.image,
      databaseName,
      api
    });
  }
  /** The control plane's nova.conf: the common options, oslo.cache and `[keystone_authtoken]`. */
  controlPlaneFiles(props, common2) {
    const conf = this.renderConfig(
      mergeOslo(common2, {
        // oslo.cache on memcached for the control plane only. nova-compute runs on the host network,
        // where the NetworkPolicies cannot tell a hypervisor from any other source, and memcached
        // has no authentication: rather than open it to every node, the hypervisors keep Nova's
        // in-process cache (without `[cache] enabled`, nova.cache_utils uses an oslo_cache.dict region).
        ...osloCacheConfig(props.cache),
        neutron: { service_metadata_proxy: true },
        oslo_middleware: { enable_proxy_headers_parsing: true },
        scheduler: { discover_hosts_in_cells_interval: 300 },
        ...keystoneAuthtokenConfig(props.keystone, this.registration, props.cache)
      })
    );
    return { mountPath: this.configDir, files: { "nova.conf": conf } };
  }
  /**
   * One `NovaCell` per cell. With several cells, hypervisors labelled `cellN` (N >= 2) belong to
   * cell N, the rest to cell 1.
   */
  buildCells(props, cellOptions, config) {
    const cellNodeLabel = props.cellNodeLabel ?? "nova.stackwright.io/cell";
    const extraCellLabels = cellOptions.slice(1).map((_, i) => ({ [cellNodeLabel]: `cell${i + 2}` }));
    const cellNodes = (index) => cellOptions.length === 1 ? {} : index === 0 ? { excluded: extraCellLabels } : { required: extraCellLabels[index - 1] };
    return cellOptions.map(
      (options, index) => new NovaCell(this, `cell${index + 1}`, {
        index,
        serviceName: this.serviceName,
        database: options.database ?? props.database,
        messaging: options.messaging ?? props.messaging,
        conductorReplicas: index === 0 ? props.conductorReplicas : options.conductorReplicas,
        vncReplicas: props.vncReplicas,
        nodes: cellNodes(index),
        image: this.image,
        operatorKey: this.operatorKey,
        schema: this.schema,
        ...config,
        compute: props.compute ?? {},
        // Cell 1's conductor is the super-conductor: it reads the API database too.
        conductorEnv: index === 0 ? this.apiDatabase.connectionEnv("API_DB_PASSWORD") : [],
        peers: {
          keystone: props.keystone,
          cache: props.cache,
          placement: props.placement,
          glance: props.glance,
          neutron: props.neutron,
          ovnAgent: props.neutron.ovnAgent,
          libvirt: this.libvirt,
          cinder: props.cinder
        }
      })
    );
  }
  /** The Job recording cell0 and every cell in the API database, after their databases and buses exist. */
  mapCells() {
    const mapping = cellMappingJob(this, "cell-mapping", {
      operatorKey: this.operatorKey,
      image: this.image,
      apiDatabase: this.apiDatabase,
      cell0Database: this.cell0Database,
      cells: this.cells
    });
    mapping.dependsOn(this.apiDatabase.sync, "completed").dependsOn(this.cell0Database.init, "completed");
    for (const c of this.cells) {
      mapping.dependsOn(c.database.init, "completed").dependsOn(c.messaging.init, "completed");
      c.mappedBy(mapping);
    }
    return mapping;
  }
  /** The edges every control-plane component of the API level shares. */
  apiLevelEdges(component, props) {
    const first = this.cells[0];
    component.dependsOn(props.keystone, "ready").dependsOn(props.cache, "ready").dependsOn(this.cellMapping, "completed").dependsOn(this.registration.job, "completed");
    for (const c of this.cells) component.dependsOn(c.databaseEndpoint, "ready");
    component.dependsOn(first.messagingEndpoint, "ready").dependsOn(first.messaging.init, "completed");
    const syncs = [this.apiDatabase.sync, this.cell0Database.sync, ...this.cells.map((c) => c.database.sync)];
    for (const sync of syncs) component.dependsOn(sync, "completed");
    return component;
  }
  /**
   * Neutron reaches Nova at run time: port events to the API, instance metadata to the metadata
   * API, which its metadata agent must name.
   */
  wireNeutron(neutron) {
    neutron.api.dependsOn(this.api, "runtime");
    for (const agent of neutron.ovnAgent.components) agent.dependsOn(this.metadata, "runtime");
    addCheck(
      this,
      () => neutron.novaMetadataHost === this.metadata.componentName ? [] : [
        `${neutron.node.path}'s metadata agent forwards to ${neutron.novaMetadataHost}, but this Nova's metadata API is ${this.metadata.componentName}; pass ovnAgent: { novaMetadataHost: '${this.metadata.componentName}' } to Neutron`
      ]
    );
  }
  /** cell 1's conductor, the super-conductor. */
  get conductor() {
    return this.cells[0].conductor;
  }
};
function novaCellOptions(cells) {
  if (typeof cells === "object" && cells.length > 0) return cells;
  const count = typeof cells === "number" && Number.isFinite(cells) ? Math.trunc(cells) : 1;
  return Array.from({ length: Math.max(1, Math.min(MAX_CELLS, count)) }, () => ({}));
}
function computeNovaConf(base, virtType) {
  return mergeOslo(base, {
    DEFAULT: { compute_driver: "libvirt.LibvirtDriver", instances_path: "/var/lib/nova/instances" },
    ...libvirtOptions(virtType),
    // os-vif ensures br-int through the node's Open vSwitch database, which the OVN agent serves on
    // its unix socket only (os-vif's default is tcp:127.0.0.1:6640).
    os_vif_ovs: { ovsdb_connection: "unix:/run/openvswitch/db.sock" },
    oslo_concurrency: { lock_path: "/var/lib/nova/tmp" },
    // nova-compute runs as root in a privileged pod: oslo.privsep's helpers (Nova's, os-vif's,
    // os-brick's) start with `sudo privsep-helper`. Through rootwrap they would not start at all:
    // its filters allow no `--config-dir`, which oslo adds for /etc/nova/nova.conf.d.
    workarounds: { disable_rootwrap: true }
  });
}
function cellProblems(cells) {
  if (cells === void 0) return [];
  if (typeof cells === "number") return rangeProblems("cells", cells, { min: 1, max: MAX_CELLS });
  return cells.length >= 1 && cells.length <= MAX_CELLS ? [] : [`cells must list between 1 and ${MAX_CELLS} cells, got ${cells.length}`];
}

// stacks/reference-cloud-services.ts
function apiServiceOptions(options) {
  return { apiReplicas: options?.replicas, image: options?.image };
}

// stacks/minimal-control-plane.ts
function buildControlPlane(scope, id, props = {}, neutronAgents = {}) {
  const { services = {}, keystoneNotifications = false, ...cloudProps } = props;
  const cloud = new Cloud(scope, id, { namespace: "openstack", ...cloudProps });
  const database = new MariaDB(cloud, "db", services.db);
  const messaging = new RabbitMQ(cloud, "mq", services.mq);
  const cache = new Memcached(cloud, "memcached", services.memcached);
  const ovsdb = new OvsdbCluster(cloud, "ovsdb", services.ovsdb);
  const shared = { database, cache, messaging };
  const keystone = new Keystone(cloud, "keystone", {
    database,
    cache,
    messaging: keystoneNotifications ? messaging : void 0,
    ...services.keystone
  });
  const glance = new Glance(cloud, "glance", { keystone, database, cache, ...services.glance });
  const placement2 = new Placement(cloud, "placement", {
    keystone,
    database,
    cache,
    ...services.placement
  });
  const neutron = new Neutron(cloud, "neutron", {
    keystone,
    ...shared,
    ovsdb,
    ...neutronAgents,
    ...apiServiceOptions(services.neutron)
  });
  const nova = new Nova(cloud, "nova", {
    keystone,
    ...shared,
    placement: placement2,
    glance,
    neutron,
    ...apiServiceOptions(services.nova)
  });
  return { cloud, database, messaging, cache, ovsdb, keystone, glance, placement: placement2, neutron, nova };
}
function minimalControlPlane(scope, id = "minimal", props = {}) {
  return buildControlPlane(scope, id, props).cloud;
}

// ../../tmp/prof/jobs.ts
var g = graphFromManifests(synthObjects(minimalControlPlane(new import_cdk8s9.App(), "prod", { namespace: "openstack", release: "2025.1" })));
for (const c of g.components) {
  const jobs = c.objects.filter((o) => o.kind === "Job" || o.kind === "CronJob");
  if (jobs.length) for (const j of jobs) console.log(c.service, c.name, j.kind, j.metadata.name, JSON.stringify(j.metadata.annotations ?? {}).slice(0, 200), JSON.stringify(j.spec.template?.spec?.containers?.[0]?.command ?? j.spec.template?.spec?.containers?.[0]?.args).slice(0, 150));
}
console.log(g.components.map((c) => c.name + "<-" + c.edges.map((e) => e.to + ":" + e.kind).join(",")).filter((s) => /keystone-api|nova-conductor/.test(s)).join("\n"));
