// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "tools.hpp"

#include <agentio/chat_completions/model.hpp>
#include <agentio/json_text.hpp>
#include <agentio/text.hpp>

#include <boost/json.hpp>

#include <muParser.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <chrono>
#include <cstdio>

namespace platform {

namespace asio = boost::asio;
namespace json = boost::json;

boost::system::result<double, std::string> evaluate(std::string const& expression)
{
    try
    {
        // One parser per call: muParser objects are not thread-safe, and
        // building one costs microseconds.
        mu::Parser parser;
        parser.SetExpr(expression);
        double const value = parser.Eval();
        if(!std::isfinite(value))
            return std::string("the result is not a finite number");
        return value;
    }
    catch(mu::Parser::exception_type const& e)
    {
        return e.GetMsg();
    }
}

namespace {

// SymPy, in the sandbox: the request on standard input, the answer on
// descriptor 3. parse_expr evaluates Python: that is why it runs isolated.
constexpr char const* symbolic_driver = R"py(import json, os, re, sys
def report(message):
    os.write(3, json.dumps(message).encode())
try:
    request = json.loads(sys.stdin.read())
    import sympy
    from sympy.parsing.sympy_parser import (parse_expr, standard_transformations,
        implicit_multiplication_application, convert_xor)
    transformations = standard_transformations + (implicit_multiplication_application, convert_xor)
    names = {}
    def parse(text):
        text = text.strip()
        if not text:
            raise ValueError("an empty expression")
        return parse_expr(text, local_dict=names, transformations=transformations)
    def equation(text):
        if re.search(r"(?<![<>!=])=(?!=)", text):
            left, right = re.split(r"(?<![<>!=])=(?!=)", text, maxsplit=1)
            return sympy.Eq(parse(left), parse(right))
        return parse(text)
    def symbol(name):
        name = name.strip()
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise ValueError("'" + name + "' is not a variable's name")
        return sympy.Symbol(name)
    def variable_of(e, name):
        if name.strip():
            return symbol(name)
        found = sorted(e.free_symbols, key=str)
        if len(found) == 1:
            return found[0]
        if not found:
            raise ValueError("the expression has no variable")
        raise ValueError("say which variable: the expression has " + ", ".join(map(str, found)))
    operation, text, variable = request["operation"], request["expression"], request["variable"]
    spec = [v for v in variable.split(",")] if variable.strip() else []
    if operation == "evaluate":
        e = sympy.simplify(parse(text))
        result = e if e.is_Integer or e.is_Rational and e.q < 10**6 else sympy.N(e, 15)
    elif operation in ("simplify", "expand", "factor"):
        result = getattr(sympy, operation)(parse(text))
    elif operation == "solve":
        equations = [equation(part) for part in text.split(";") if part.strip()]
        if spec:
            unknowns = [symbol(v) for v in spec]
        else:
            unknowns = sorted(set().union(*[q.free_symbols for q in equations]), key=str)
        if not unknowns:
            raise ValueError("the equation has no unknown")
        if len(equations) == 1 and len(unknowns) == 1:
            result = sympy.solve(equations[0], unknowns[0])
        else:
            result = sympy.solve(equations, unknowns, dict=True)
    elif operation in ("diff", "integrate"):
        e = parse(text)
        x = variable_of(e, spec[0] if spec else "")
        if operation == "diff":
            result = sympy.diff(e, x, int(spec[1]) if len(spec) > 1 else 1)
        elif len(spec) == 3:
            result = sympy.integrate(e, (x, parse(spec[1]), parse(spec[2])))
        elif len(spec) in (0, 1):
            result = sympy.integrate(e, x)
        else:
            raise ValueError("a definite integral's variable reads x,a,b")
    elif operation in ("limit", "series"):
        name, arrow, point = variable.replace("\u2192", "->").partition("->")
        e = parse(text)
        x = variable_of(e, name)
        point = point.strip()
        if operation == "limit":
            if not point:
                raise ValueError("a limit needs its point: variable x->0 (oo for infinity)")
            side = "+-"
            if point.endswith(("+", "-")) and len(point) > 1:
                side, point = point[-1], point[:-1]
            at = parse(point)
            result = sympy.limit(e, x, at) if at.is_infinite else sympy.limit(e, x, at, side)
        else:
            result = sympy.series(e, x, parse(point) if point else 0, 6)
    else:
        raise ValueError("unknown operation " + operation)
    report({"result": str(result), "latex": sympy.latex(result)})
except Exception as e:
    report({"error": (type(e).__name__ + ": " + str(e)).strip()})
)py";

agentio::sandbox::limits symbolic_limits()
{
    agentio::sandbox::limits l;
    l.wall_time = std::chrono::seconds(20);
    l.cpu_time = std::chrono::seconds(15);
    l.memory_bytes = std::uint64_t(1) << 30;
    l.output_bytes = 64 * 1024;
    return l;
}

std::string number_text(double value)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.15g", value);
    return text;
}

// Text a model reads: valid UTF-8, at most `keep` bytes, the cut said.
std::string for_the_model(std::string_view text, std::size_t keep, bool from_the_end)
{
    std::string out;
    if(text.size() > keep)
    {
        std::size_t const cut = text.size() - keep;
        out = from_the_end ? "[" + std::to_string(cut) + " bytes before left out]\n" : std::string();
        text = from_the_end ? text.substr(cut) : text.substr(0, keep);
        if(!from_the_end)
        {
            agentio::append_valid_utf8(out, text);
            return out + "\n[" + std::to_string(cut) + " bytes more left out]";
        }
    }
    agentio::append_valid_utf8(out, text);
    return out;
}

/// A name the sandbox takes for a user's file: letters, digits, '.', '_' and '-'.
std::string sandbox_name(std::string_view filename)
{
    std::string out;
    for(char c : filename)
        out.push_back(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' ? c : '_');
    while(!out.empty() && out.front() == '.')
        out.erase(0, 1);
    if(out.empty() || out == "." || out == "..")
        out = "file";
    return out.substr(0, 200);
}

} // namespace

asio::awaitable<boost::system::result<std::vector<agentio::sandbox::input_file>, std::string>>
given_files(tool_resources const& resources, std::vector<std::string> const& ids, agentio::tool_context& ctx)
{
    if(!resources.files)
        co_return std::string("This server keeps no uploaded files (it has no store): answer without files.");
    auto const* who = ctx.extensions.find<agentio::chat_completions::caller>();
    std::string const owner = who ? who->user : std::string();
    std::vector<agentio::sandbox::input_file> out;
    for(auto const& id : ids)
    {
        auto file = co_await resources.files->read(owner, id);
        if(!file)
            co_return file.error().status == 404 ? "The file '" + id + "' is not among this user's uploaded files."
                                                 : "The file '" + id + "' cannot be read: " + file.error().message;
        auto name = sandbox_name(file->record.filename);
        for(auto const& earlier : out)
            if(earlier.path == name)
                name = sandbox_name(id + "_" + name);
        out.push_back({std::move(name), std::move(file->content)});
    }
    co_return out;
}

asio::awaitable<agentio::tool_result> math_calc::operator()(args a, agentio::tool_context&) const
{
    if(a.operation == "evaluate")
    {
        auto value = evaluate(a.expression);
        if(value)
        {
            auto r = agentio::tool_result::json(json::object{{"expression", a.expression}, {"operation", "evaluate"},
                {"result", *value}});
            r.summary = a.expression + " = " + number_text(*value);
            co_return r;
        }
        // What muParser does not know (factorial, binomial, exact big integers) SymPy may.
        if(!resources || !resources->sandbox)
            co_return agentio::tool_result::error("Cannot evaluate '" + a.expression + "': " + value.error());
    }
    else if(!resources || !resources->sandbox)
        co_return agentio::tool_result::error("Symbolic mathematics is not available on this server (" +
            (resources ? resources->sandbox_missing : std::string("no sandbox")) +
            "): use operation 'evaluate' for numbers.");

    agentio::sandbox::python_program sympy;
    sympy.source = symbolic_driver;
    sympy.input = {{"expression", a.expression}, {"operation", a.operation}, {"variable", a.variable}};
    sympy.limits = symbolic_limits();
    auto const answer = co_await agentio::sandbox::run_python_program(*resources->sandbox, std::move(sympy));
    std::string const what = a.operation + " of '" + a.expression + "'";
    if(!answer)
        co_return agentio::tool_result::error("SymPy " + answer.error() + " before it answered the " + what + ".");
    auto const& o = *answer;
    if(auto const* error = o.if_contains("error"); error && error->is_string())
        co_return agentio::tool_result::error("Cannot " + what + ": " + std::string(error->as_string()));
    json::object out{{"expression", a.expression}, {"operation", a.operation}};
    if(!a.variable.empty())
        out["variable"] = a.variable;
    out["result"] = o.at("result");
    out["latex"] = o.at("latex");
    auto r = agentio::tool_result::json(std::move(out));
    r.summary = a.operation + "(" + a.expression + ") = " + std::string(o.at("result").as_string());
    co_return r;
}

asio::awaitable<agentio::tool_result> python_code::operator()(args a, agentio::tool_context& ctx) const
{
    if(!resources->sandbox)
        co_return agentio::tool_result::error("Code cannot run on this server (" + resources->sandbox_missing +
            "): answer without running code.");
    agentio::sandbox::python_request request;
    request.code = std::move(a.code);
    request.limits = resources->code_limits;
    json::object given;
    if(!a.file_ids.empty())
    {
        auto files = co_await given_files(*resources, a.file_ids, ctx);
        if(!files)
            co_return agentio::tool_result::error(files.error());
        request.files = std::move(*files);
        for(std::size_t i = 0; i < a.file_ids.size(); ++i)
            given[a.file_ids[i]] = request.files[i].path;
    }
    // Within the time the caller still waits.
    auto const left = std::chrono::duration_cast<std::chrono::milliseconds>(ctx.deadline -
        std::chrono::steady_clock::now());
    if(ctx.deadline != std::chrono::steady_clock::time_point::max() && left < request.limits.wall_time)
        request.limits.wall_time = std::max(left, std::chrono::milliseconds(100));
    std::string failure;
    agentio::sandbox::python_result got;
    try
    {
        got = co_await agentio::sandbox::run_python(*resources->sandbox, std::move(request));
    }
    catch(agentio::sandbox::failure const& e)
    {
        failure = e.what();
    }
    if(!failure.empty())
        co_return agentio::tool_result::error("The sandbox could not run the code: " + failure);
    auto const& limits = resources->code_limits;
    json::object out;
    out["status"] = got.describe(limits);
    out["exit_status"] = got.run.how == agentio::sandbox::ending::exited ? json::value(got.run.exit_code) : nullptr;
    out["stdout"] = for_the_model(got.run.output, 16 * 1024, false);
    out["stderr"] = for_the_model(got.run.errors, 4 * 1024, true);
    if(got.value)
        out["value"] = for_the_model(*got.value, 8 * 1024, false);
    out["duration_ms"] = got.run.duration.count() / 1000;
    if(!given.empty())
        out["files"] = std::move(given); // each id, and the name it had in the working folder
    auto r = agentio::tool_result::json(std::move(out));
    r.is_error = !got.run.succeeded();
    r.summary = "python: " + got.describe(limits) + " in " + std::to_string(got.run.duration.count() / 1000) + " ms";
    co_return r;
}

namespace {

// The rows of an uploaded file, read and counted in the sandbox (the file is
// the user's, so its parser runs isolated); exact decimals throughout.
constexpr char const* analysis_driver = R"py(import csv, decimal, io, json, os, statistics, sys
decimal.getcontext().prec = 34
def report(message):
    os.write(3, json.dumps(message).encode())
def text(d):
    if isinstance(d, decimal.Decimal):
        if d == d.to_integral_value():
            return str(d.quantize(decimal.Decimal(1)))
        return format(d.normalize(), "f")
    return d
class Refused(Exception):
    pass
try:
    request = json.loads(sys.stdin.read())
    name, kind = request["filename"], request["media_type"]
    with open("/work/data", "rb") as f:
        raw = f.read()
    try:
        body = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise Refused(name + " is not UTF-8 text (byte " + str(e.start) + ")")
    looks_json = body.lstrip()[:1] in ("[", "{")
    if kind == "text/csv" or (kind == "text/plain" and not looks_json):
        try:
            dialect = csv.Sniffer().sniff(body[:4096], delimiters=",;\t|")
        except csv.Error:
            dialect = csv.excel
        rows = list(csv.DictReader(io.StringIO(body), dialect=dialect))
    elif kind == "application/jsonl":
        rows = []
        for n, line in enumerate(body.splitlines(), 1):
            if line.strip():
                try:
                    rows.append(json.loads(line, parse_float=decimal.Decimal))
                except ValueError as e:
                    raise Refused(name + " line " + str(n) + " is not JSON: " + str(e))
    else:
        try:
            rows = json.loads(body, parse_float=decimal.Decimal)
        except ValueError as e:
            raise Refused(name + " is not JSON: " + str(e))
        if isinstance(rows, dict):
            lists = [v for v in rows.values() if isinstance(v, list)]
            rows = lists[0] if len(lists) == 1 else [rows]
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise Refused(name + " is not a table: expected an array of objects, JSON Lines or CSV")
    fields = []
    for r in rows:
        for k in r:
            if k not in fields:
                fields.append(k)
    def number(v):
        if isinstance(v, bool) or v is None:
            return None
        if isinstance(v, (int, decimal.Decimal)):
            return decimal.Decimal(v)
        if isinstance(v, float):
            return decimal.Decimal(repr(v))
        if isinstance(v, str):
            try:
                d = decimal.Decimal(v.strip().replace(" ", ""))
                return d if d.is_finite() else None
            except decimal.InvalidOperation:
                return None
        return None
    def need(field, what):
        if field not in fields:
            raise Refused("The field '" + field + "' is not in " + name + "; its fields are: " + ", ".join(map(str, fields)) + ".")
    for f in request["filters"]:
        need(f["field"], "filter")
    operation, field, group_by = request["operation"], request["field"], request["group_by"]
    if operation != "count" and not field:
        raise Refused("The operation '" + operation + "' needs a field; the fields of " + name + " are: " + ", ".join(map(str, fields)) + ".")
    if field:
        need(field, "field")
    if group_by:
        need(group_by, "group_by")
    def keeps(row):
        for f in request["filters"]:
            v, op, want = row.get(f["field"]), f["operator"], f["value"]
            a, b = number(v), number(want)
            if op == "contains":
                ok = want.lower() in ("" if v is None else str(v)).lower()
            elif a is not None and b is not None:
                ok = {"eq": a == b, "ne": a != b, "gt": a > b, "gte": a >= b, "lt": a < b, "lte": a <= b}[op]
            else:
                s, t = ("" if v is None else str(v)), want
                ok = {"eq": s == t, "ne": s != t, "gt": s > t, "gte": s >= t, "lt": s < t, "lte": s <= t}[op]
            if not ok:
                return False
        return True
    kept = [r for r in rows if keeps(r)]
    numeric = operation in ("sum", "mean", "median") or (operation in ("min", "max") and field)
    def compute(group):
        if operation == "count":
            return len(group) if not field else sum(1 for r in group if r.get(field) not in (None, ""))
        values = [r.get(field) for r in group if r.get(field) not in (None, "")]
        if operation == "distinct":
            seen = []
            for v in values:
                t = text(v) if not isinstance(v, (dict, list)) else json.dumps(v, default=str)
                if t not in seen:
                    seen.append(t)
            return seen[:1000]
        numbers = []
        for n, v in enumerate(values):
            d = number(v)
            if d is None:
                numeric_fields = [f for f in fields if any(number(r.get(f)) is not None for r in rows[:50])]
                raise Refused("The field '" + field + "' is not numeric (a value is '" + str(v)[:50] + "'); numeric fields of " + name + ": " + (", ".join(map(str, numeric_fields)) or "none") + ".")
            numbers.append(d)
        if not numbers:
            return None
        if operation == "sum":
            return text(sum(numbers, decimal.Decimal(0)))
        if operation == "mean":
            # Exact to twelve decimals: a quotient has no last digit to keep.
            return text((sum(numbers, decimal.Decimal(0)) / len(numbers)).quantize(decimal.Decimal(1).scaleb(-12)))
        if operation == "median":
            return text(statistics.median(numbers))
        return text(min(numbers) if operation == "min" else max(numbers))
    out = {"file": name, "rows": len(rows), "rows_kept": len(kept), "operation": operation}
    if field:
        out["field"] = field
    if group_by:
        groups = {}
        for r in kept:
            k = r.get(group_by)
            key = text(k) if not isinstance(k, (dict, list)) else json.dumps(k, default=str)
            groups.setdefault("" if key is None else str(key), []).append(r)
        out["group_by"] = group_by
        out["groups"] = [{"group": k, "rows": len(g), "result": compute(g)} for k, g in sorted(groups.items())][:500]
    else:
        out["result"] = compute(kept)
    report(out)
except Refused as e:
    report({"error": str(e)})
except MemoryError:
    report({"error": "the file is too large to analyse within the memory limit"})
except Exception as e:
    report({"error": type(e).__name__ + ": " + str(e)})
)py";

agentio::sandbox::limits analysis_limits()
{
    agentio::sandbox::limits l;
    l.wall_time = std::chrono::seconds(30);
    l.cpu_time = std::chrono::seconds(25);
    l.memory_bytes = std::uint64_t(2) << 30;
    l.work_bytes = std::uint64_t(256) << 20;
    return l;
}

} // namespace

asio::awaitable<agentio::tool_result> data_analysis::operator()(args a, agentio::tool_context& ctx) const
{
    if(!resources->sandbox)
        co_return agentio::tool_result::error("Files cannot be analysed on this server (" + resources->sandbox_missing +
            ").");
    if(!resources->files)
        co_return agentio::tool_result::error("This server keeps no uploaded files (it has no store).");
    auto const* who = ctx.extensions.find<agentio::chat_completions::caller>();
    // Named: a temporary inside a co_await is destroyed twice by GCC 12.
    std::string const owner = who ? who->user : std::string();
    auto file = co_await resources->files->read(owner, a.file_id);
    if(!file)
        co_return agentio::tool_result::error(file.error().status == 404
                ? "The file '" + a.file_id + "' is not among this user's uploaded files."
                : "The file '" + a.file_id + "' cannot be read: " + file.error().message);
    auto const& type = file->record.media_type;
    if(type != "text/csv" && type != "application/json" && type != "application/jsonl" && type != "text/plain")
        co_return agentio::tool_result::error("The file '" + file->record.filename + "' is " + type +
            ", not a table: data_analysis reads JSON, JSON Lines or CSV.");
    json::array filters;
    for(auto const& f : a.filters)
        filters.push_back(json::object{{"field", f.field}, {"operator", f.op}, {"value", f.value}});
    agentio::sandbox::python_program analysis;
    analysis.source = analysis_driver;
    analysis.files = {{"data", std::move(file->content)}};
    analysis.input = {{"filename", file->record.filename}, {"media_type", type}, {"operation", a.operation},
        {"field", a.field}, {"group_by", a.group_by}, {"filters", std::move(filters)}};
    analysis.limits = analysis_limits();
    auto answer = co_await agentio::sandbox::run_python_program(*resources->sandbox, std::move(analysis));
    if(!answer)
        co_return agentio::tool_result::error("The analysis of '" + file->record.filename + "' " + answer.error() +
            ".");
    if(auto const* error = answer->if_contains("error"); error && error->is_string())
        co_return agentio::tool_result::error(std::string(error->as_string()));
    auto r = agentio::tool_result::json(std::move(*answer));
    r.summary = a.operation + (a.field.empty() ? "" : " of " + a.field) +
        (a.group_by.empty() ? "" : " by " + a.group_by) + " in " + file->record.filename;
    co_return r;
}

asio::awaitable<agentio::tool_result> sql_query::operator()(args a, agentio::tool_context& ctx) const
{
    if(!resources->sql)
        co_return agentio::tool_result::error(
            "No database is configured on this server (PLATFORM_SQL_DB): answer without SQL.");
    auto client = *resources->sql;
    agentio::mcp::call_options o;
    o.traceparent = ctx.traceparent; // the query joins the question's trace in agentio-sqlite-mcp
    o.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::max(ctx.deadline - std::chrono::steady_clock::now(), std::chrono::steady_clock::duration(0)));
    if(ctx.deadline == std::chrono::steady_clock::time_point::max())
        o.timeout = std::chrono::seconds(30);
    json::value const arguments = json::object{{"sql", a.query}, {"max_rows", resources->sql_max_rows}};
    std::string failure;
    agentio::tool_result r;
    try
    {
        r = co_await client.call_tool("sqlite_run_select", arguments, o);
    }
    catch(agentio::mcp::client_error const& e)
    {
        failure = e.what();
    }
    if(!failure.empty())
        co_return agentio::tool_result::error("The database server failed: " + failure);
    co_return r; // rows, or the server's refusal (a write, two statements, a syntax error) as an error result
}

asio::awaitable<agentio::tool_result> rag_retrieval::operator()(args a, agentio::tool_context& ctx) const
{
    if(!resources->search && !resources->documents)
        co_return agentio::tool_result::error("No document index is configured on this server (PLATFORM_RAG_INDEX) and "
                                              "no uploaded document is indexed: answer without documents.");
    agentio::retrieval::search_request request;
    request.text = a.query;
    request.top_k = static_cast<std::size_t>(a.top_k);
    request.traceparent = ctx.traceparent; // each search a `retrieval` span of this call
    std::vector<agentio::retrieval::hit> hits;
    std::string failures;
    if(resources->search)
    {
        auto found = co_await resources->search->search(request);
        if(found)
            hits = std::move(found->hits);
        else
            failures = "the collection: " + found.error().message;
    }
    if(resources->documents)
    {
        auto const* who = ctx.extensions.find<agentio::chat_completions::caller>();
        std::string owner = who ? who->user : std::string();
        auto own = co_await resources->documents->search(std::move(owner), request);
        if(own)
            hits.insert(hits.end(), std::make_move_iterator(own->hits.begin()),
                std::make_move_iterator(own->hits.end()));
        else
            failures += (failures.empty() ? "" : "; ") + std::string("the uploaded documents: ") + own.error();
    }
    if(hits.empty() && !failures.empty())
        co_return agentio::tool_result::error("The search failed (" + failures + ").");
    // Both rankings' fused scores are in (0, 1]: the best of either come first.
    std::stable_sort(hits.begin(), hits.end(), [](auto const& x, auto const& y) { return x.score > y.score; });
    if(hits.size() > request.top_k)
        hits.resize(request.top_k);
    json::array passages;
    for(auto const& h : hits)
    {
        json::object passage;
        if(h.item.collection.starts_with("uploads/"))
        {
            // An uploaded file: its name, and where in it.
            passage["source"] = h.item.title + (h.item.section.empty() ? "" : ", " + h.item.section);
            passage["file_id"] = h.item.law;
        }
        else
        {
            std::string source = h.item.law;
            if(!h.item.article_number.empty())
                source.append(source.empty() ? "" : ", ").append("art. ").append(h.item.article_number);
            if(!h.item.paragraph.empty())
                source.append(".").append(h.item.paragraph);
            passage["source"] = source;
            passage["title"] = h.item.title;
        }
        passage["text"] = h.item.text;
        passage["score"] = std::round(h.score * 1000) / 1000;
        passages.push_back(std::move(passage));
    }
    auto r = agentio::tool_result::json(std::move(passages));
    r.summary = std::to_string(hits.size()) + " passages";
    co_return r;
}

asistente_tools make_tools(tool_resources const& resources, agentio::http::client& http,
    agentio::tools::web_tools_settings const& web)
{
    return asistente_tools{math_calc{{&resources}}, python_code{{&resources}}, data_analysis{{&resources}},
        sql_query{{&resources}}, rag_retrieval{{&resources}}, agentio::tools::web_search(http, web.web_search),
        agentio::tools::wikipedia(http, web.wikipedia), agentio::tools::weather(http, web.weather)};
}

} // namespace platform
