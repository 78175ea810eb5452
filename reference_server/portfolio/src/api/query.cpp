// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "api/query.hpp"

#include <agentio/json_text.hpp>

#include <boost/json.hpp>

#include <charconv>
#include <cmath>
#include <limits>

namespace portfolio::api {

namespace json = boost::json;

// ---------------------------------------------------------------------------
// schema

column const* table_schema::find(std::string_view name) const noexcept
{
    for(auto const& c : columns)
        if(c.name == name)
            return &c;
    return nullptr;
}

table_schema const* database_schema::by_prefix(std::string_view prefix) const noexcept
{
    for(auto const& t : tables)
        if(t.meta->prefix == prefix)
            return &t;
    return nullptr;
}

table_schema const* database_schema::by_name(std::string_view name) const noexcept
{
    for(auto const& t : tables)
        if(t.meta->name == name)
            return &t;
    return nullptr;
}

namespace {

column_kind kind_of_declared_type(std::string_view declared)
{
    // SQLite's own affinity rules (datatype3.html §3.1), reduced to three kinds.
    auto contains = [&](std::string_view what) {
        auto upper = std::string(declared);
        for(auto& ch : upper)
            ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        return upper.find(what) != std::string::npos;
    };
    if(contains("INT"))
        return column_kind::integer;
    if(contains("CHAR") || contains("CLOB") || contains("TEXT"))
        return column_kind::text;
    if(contains("REAL") || contains("FLOA") || contains("DOUB") || contains("NUM") || contains("DEC"))
        return column_kind::real;
    return column_kind::text;
}

} // namespace

checked<database_schema> load_schema(agentio::sqlite::connection& db)
{
    database_schema schema;
    for(auto const& meta : tables)
    {
        // The PRAGMA form, not pragma_table_info(): the read-only authorizer
        // admits introspection pragmas, and the table-valued form needs more.
        // The name is ours (table_metadata.hpp), quoted all the same.
        auto stmt = db.prepare("PRAGMA table_info(" + quote_identifier(meta.name) + ")");
        if(!stmt)
            return api_error{500, "no se pudo leer el esquema: " + db.last_error_message()};
        table_schema t{&meta, {}};
        for(;;)
        {
            auto row = stmt->step();
            if(!row)
                return api_error{500, "no se pudo leer el esquema: " + db.last_error_message()};
            if(!*row)
                break;
            // table_info columns: cid, name, type, notnull, dflt_value, pk
            t.columns.push_back({std::string(stmt->column_text(1)), kind_of_declared_type(stmt->column_text(2))});
        }
        if(t.columns.empty())
            return api_error{500, "la base de datos no tiene la tabla '" + std::string(meta.name) + "'"};
        schema.tables.push_back(std::move(t));
    }
    return schema;
}

boost::system::result<void> bind_all(agentio::sqlite::statement& stmt, std::vector<sql_value> const& params)
{
    int index = 0;
    for(auto const& p : params)
    {
        ++index;
        boost::system::result<void> r = std::visit(
            [&](auto const& v) -> boost::system::result<void> {
                using T = std::decay_t<decltype(v)>;
                if constexpr(std::is_same_v<T, std::nullptr_t>)
                    return stmt.bind_null(index);
                else if constexpr(std::is_same_v<T, std::string>)
                    return stmt.bind(index, std::string_view(v));
                else
                    return stmt.bind(index, v);
            },
            p);
        if(!r)
            return r;
    }
    return {};
}

// ---------------------------------------------------------------------------
// request parsing

namespace {

api_error unprocessable(std::string detail)
{
    return {422, std::move(detail)};
}

std::string json_text(json::value const& v)
{
    auto s = json::serialize(v);
    if(s.size() > 80)
        s = s.substr(0, 77) + "...";
    return s;
}

char const* kind_name(json::value const& v)
{
    switch(v.kind())
    {
    case json::kind::null: return "null";
    case json::kind::bool_: return "un booleano";
    case json::kind::int64:
    case json::kind::uint64:
    case json::kind::double_: return "un número";
    case json::kind::string: return "un texto";
    case json::kind::array: return "una lista";
    case json::kind::object: return "un objeto";
    }
    return "?";
}

// An integer from JSON: integral numbers only (50 and 50.0, not 50.5 or "50").
std::optional<std::int64_t> json_integer(json::value const& v)
{
    if(auto const* i = v.if_int64())
        return *i;
    if(auto const* u = v.if_uint64())
        return *u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
            ? std::optional<std::int64_t>(static_cast<std::int64_t>(*u))
            : std::nullopt;
    if(auto const* d = v.if_double())
        if(std::trunc(*d) == *d && std::abs(*d) < 9.0e15)
            return static_cast<std::int64_t>(*d);
    return std::nullopt;
}

std::optional<std::int64_t> parse_integer(std::string_view s)
{
    std::int64_t v = 0;
    auto const [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if(ec != std::errc() || ptr != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::optional<api_error> check_page(std::int64_t limit, std::int64_t offset, std::string_view limit_name,
    std::string_view offset_name, limits const& lim)
{
    if(limit < 1 || limit > lim.max_limit)
        return unprocessable(std::string(limit_name) + ": debe estar entre 1 y " + std::to_string(lim.max_limit) +
            " (recibido " + std::to_string(limit) + ")");
    if(offset < 0)
        return unprocessable(std::string(offset_name) + ": no puede ser negativo (recibido " + std::to_string(offset) +
            ")");
    return std::nullopt;
}

// `limit` and `offset` of a query string (the default limit and 0 when absent), checked.
std::variant<std::pair<std::int64_t, std::int64_t>, api_error> parse_page(std::optional<std::string_view> limit_text,
    std::optional<std::string_view> offset_text, limits const& lim)
{
    std::int64_t limit = lim.default_limit, offset = 0;
    if(limit_text)
    {
        auto v = parse_integer(*limit_text);
        if(!v)
            return unprocessable("limit: debe ser un número entero; recibido '" + std::string(*limit_text) + "'");
        limit = *v;
    }
    if(offset_text)
    {
        auto v = parse_integer(*offset_text);
        if(!v)
            return unprocessable("offset: debe ser un número entero; recibido '" + std::string(*offset_text) + "'");
        offset = *v;
    }
    if(auto e = check_page(limit, offset, "limit", "offset", lim))
        return *e;
    return std::pair{limit, offset};
}

// Rejects keys a request shape does not have: a typo ("filter") would
// otherwise be silently ignored and the answer would look right but be wrong.
std::optional<api_error> check_keys(json::object const& obj, std::initializer_list<std::string_view> allowed,
    std::string_view where)
{
    for(auto const& kv : obj)
    {
        bool known = false;
        for(auto a : allowed)
            known = known || kv.key() == a;
        if(!known)
        {
            std::string list;
            for(auto a : allowed)
                list += (list.empty() ? "" : ", ") + std::string(a);
            return unprocessable(std::string(where) + (where.empty() ? "" : ".") + std::string(kv.key()) +
                ": campo desconocido (admitidos: " + list + ")");
        }
    }
    return std::nullopt;
}

// A filter value converted for a column, or why it cannot be.
checked<sql_value> scalar_for_column(json::value const& v, column const& col, std::string const& where)
{
    auto mismatch = [&](char const* expected) {
        return unprocessable(where + ": el campo '" + col.name + "' es " + expected + "; recibido " + kind_name(v) +
            " " + json_text(v));
    };
    switch(v.kind())
    {
    case json::kind::null:
        return unprocessable(where + ": valor null no admitido; usa los operadores is_null / is_not_null");
    case json::kind::array:
    case json::kind::object: return mismatch(col.kind == column_kind::text ? "de texto" : "numérico");
    case json::kind::bool_:
        if(col.kind == column_kind::text)
            return mismatch("de texto");
        return sql_value(std::int64_t(v.get_bool() ? 1 : 0));
    case json::kind::int64:
    case json::kind::uint64:
    case json::kind::double_:
        if(col.kind == column_kind::text)
        {
            // A number compared with a text column: compare its shortest text form.
            std::string text;
            if(auto i = json_integer(v); i && !v.is_double())
                agentio::append_json_number(text, *i);
            else
                agentio::append_json_number(text, v.to_number<double>());
            return sql_value(std::move(text));
        }
        if(auto i = json_integer(v); i && !v.is_double())
            return sql_value(*i);
        return sql_value(v.to_number<double>());
    case json::kind::string:
    {
        std::string_view s = v.get_string();
        if(col.kind == column_kind::text)
            return sql_value(std::string(s));
        // Numeric column: accept numeric text ("2025", "1500.5"), nothing else.
        if(auto i = parse_integer(s))
            return sql_value(*i);
        double d = 0;
        auto const [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
        if(ec == std::errc() && ptr == s.data() + s.size() && !s.empty() && std::isfinite(d))
            return sql_value(d);
        return mismatch("numérico");
    }
    }
    return mismatch("?");
}

// % and _ of LIKE become * and ? of GLOB, whose own specials are escaped, so
// that `like` is case-sensitive (SQLite's LIKE is not) with the same patterns.
std::string like_to_glob(std::string_view pattern)
{
    std::string out;
    for(char c : pattern)
    {
        switch(c)
        {
        case '%': out.push_back('*'); break;
        case '_': out.push_back('?'); break;
        case '*': out.append("[*]"); break;
        case '?': out.append("[?]"); break;
        case '[': out.append("[[]"); break;
        default: out.push_back(c);
        }
    }
    return out;
}

constexpr std::string_view operator_list = "eq, ne, gt, gte, lt, lte, like, ilike, in, not_in, is_null, is_not_null";

// Appends one comparison (`f` an object {"field", "operator", "value"}) to `q`.
std::optional<api_error> append_comparison(sql_query& q, table_schema const& table, json::object const& f,
    std::string const& where, limits const& lim)
{
    if(auto e = check_keys(f, {"field", "operator", "value"}, where))
        return e;

    auto const* field_v = f.if_contains("field");
    if(!field_v || !field_v->is_string())
        return unprocessable(where + ".field: obligatorio, el nombre de un campo de la tabla " +
            std::string(table.meta->name));
    std::string_view field = field_v->get_string();
    column const* col = table.find(field);
    if(!col)
        return unprocessable(where + ".field: campo desconocido '" + std::string(field) + "' en la tabla " +
            std::string(table.meta->name));

    auto const* op_v = f.if_contains("operator");
    if(!op_v || !op_v->is_string())
        return unprocessable(where + ".operator: obligatorio, uno de " + std::string(operator_list));
    std::string_view op = op_v->get_string();
    auto const* value = f.if_contains("value");

    std::string const ident = quote_identifier(col->name);

    auto binary = [&](char const* sql_op) -> std::optional<api_error> {
        if(!value)
            return unprocessable(where + ".value: obligatorio con el operador " + std::string(op));
        auto v = scalar_for_column(*value, *col, where + ".value");
        if(auto* e = std::get_if<api_error>(&v))
            return *e;
        q.sql += ident + " " + sql_op + " ?";
        q.params.push_back(std::move(std::get<sql_value>(v)));
        return std::nullopt;
    };
    auto pattern = [&](bool case_sensitive) -> std::optional<api_error> {
        if(!value || !value->is_string())
            return unprocessable(where + ".value: el operador " + std::string(op) +
                " necesita un texto (patrón con % y _); recibido " + (value ? kind_name(*value) : "nada"));
        std::string_view p = value->get_string();
        if(case_sensitive)
        {
            q.sql += ident + " GLOB ?";
            q.params.emplace_back(like_to_glob(p));
        }
        else
        {
            q.sql += "casefold(" + ident + ") LIKE casefold(?)";
            q.params.emplace_back(std::string(p));
        }
        return std::nullopt;
    };
    auto in_list = [&](bool negate) -> std::optional<api_error> {
        auto const* list = value ? value->if_array() : nullptr;
        if(!list || list->empty())
            return unprocessable(where + ".value: el operador " + std::string(op) +
                " necesita una lista no vacía; recibido " + (value ? kind_name(*value) : "nada"));
        if(list->size() > lim.max_in_values)
            return unprocessable(where + ".value: como máximo " + std::to_string(lim.max_in_values) + " valores");
        q.sql += ident + (negate ? " NOT IN (" : " IN (");
        std::size_t j = 0;
        for(auto const& item : *list)
        {
            auto v = scalar_for_column(item, *col, where + ".value[" + std::to_string(j) + "]");
            if(auto* e = std::get_if<api_error>(&v))
                return *e;
            q.sql += j++ ? ",?" : "?";
            q.params.push_back(std::move(std::get<sql_value>(v)));
        }
        q.sql += ")";
        return std::nullopt;
    };

    if(op == "eq")
        return binary("=");
    if(op == "ne")
        return binary("<>");
    if(op == "gt")
        return binary(">");
    if(op == "gte")
        return binary(">=");
    if(op == "lt")
        return binary("<");
    if(op == "lte")
        return binary("<=");
    if(op == "like")
        return pattern(true);
    if(op == "ilike")
        return pattern(false);
    if(op == "in")
        return in_list(false);
    if(op == "not_in")
        return in_list(true);
    if(op == "is_null")
    {
        q.sql += ident + " IS NULL";
        return std::nullopt;
    }
    if(op == "is_not_null")
    {
        q.sql += ident + " IS NOT NULL";
        return std::nullopt;
    }
    return unprocessable(where + ".operator: operador desconocido '" + std::string(op) + "'; debe ser uno de " +
        std::string(operator_list));
}

// Appends " WHERE ..." for `filters` (absent or an array) to `q`: the filters
// joined with AND, a group {"any": [...]} as its comparisons joined with OR in
// parentheses. Groups do not nest; every comparison, in a group or not,
// counts towards max_filters.
std::optional<api_error> append_where(sql_query& q, table_schema const& table, json::value const* filters,
    limits const& lim)
{
    if(!filters || filters->is_null())
        return std::nullopt;
    auto const* arr = filters->if_array();
    if(!arr)
        return unprocessable("filters: debe ser una lista de filtros; recibido " + std::string(kind_name(*filters)));
    if(arr->size() > lim.max_filters)
        return unprocessable("filters: como máximo " + std::to_string(lim.max_filters) + " filtros");
    std::size_t comparisons = 0;
    auto too_many = [&] {
        return unprocessable("filters: como máximo " + std::to_string(lim.max_filters) +
            " filtros (contando los de los grupos any)");
    };

    std::size_t i = 0;
    for(auto const& fv : *arr)
    {
        std::string const where = "filters[" + std::to_string(i) + "]";
        auto const* f = fv.if_object();
        if(!f)
            return unprocessable(where +
                ": debe ser un objeto {\"field\", \"operator\", \"value\"} o {\"any\": [...]}");
        q.sql += i == 0 ? " WHERE " : " AND ";
        if(f->contains("any"))
        {
            if(auto e = check_keys(*f, {"any"}, where))
                return e;
            auto const* group = f->at("any").if_array();
            if(!group || group->empty())
                return unprocessable(where +
                    ".any: debe ser una lista no vacía de filtros {\"field\", \"operator\", "
                    "\"value\"}");
            q.sql += "(";
            std::size_t j = 0;
            for(auto const& gv : *group)
            {
                std::string const inner = where + ".any[" + std::to_string(j) + "]";
                auto const* g = gv.if_object();
                if(!g)
                    return unprocessable(inner + ": debe ser un objeto {\"field\", \"operator\", \"value\"}");
                if(g->contains("any"))
                    return unprocessable(inner +
                        ".any: los grupos any no se anidan; un grupo solo contiene filtros "
                        "{\"field\", \"operator\", \"value\"}");
                if(++comparisons > lim.max_filters)
                    return too_many();
                if(j++)
                    q.sql += " OR ";
                if(auto e = append_comparison(q, table, *g, inner, lim))
                    return e;
            }
            q.sql += ")";
        }
        else
        {
            if(++comparisons > lim.max_filters)
                return too_many();
            if(auto e = append_comparison(q, table, *f, where, lim))
                return e;
        }
        ++i;
    }
    return std::nullopt;
}

checked<json::object const*> body_object(json::value const& body)
{
    auto const* obj = body.if_object();
    if(!obj)
        return unprocessable("el cuerpo debe ser un objeto JSON; recibido " + std::string(kind_name(body)));
    return obj;
}

std::optional<api_error> read_integer(json::object const& obj, std::string_view key, std::int64_t& out)
{
    auto const* v = obj.if_contains(key);
    if(!v || v->is_null())
        return std::nullopt;
    auto i = json_integer(*v);
    if(!i)
        return unprocessable(std::string(key) + ": debe ser un número entero; recibido " + kind_name(*v) + " " +
            json_text(*v));
    out = *i;
    return std::nullopt;
}

// `limit` and `offset` of a JSON body (the default limit and 0 when absent), checked.
std::variant<std::pair<std::int64_t, std::int64_t>, api_error> read_page(json::object const& obj, limits const& lim)
{
    std::int64_t limit = lim.default_limit, offset = 0;
    if(auto e = read_integer(obj, "limit", limit))
        return *e;
    if(auto e = read_integer(obj, "offset", offset))
        return *e;
    if(auto e = check_page(limit, offset, "limit", "offset", lim))
        return *e;
    return std::pair{limit, offset};
}

// ORDER BY of a page: the requested column (if any), then the key, which
// breaks ties so that pages never overlap or skip rows. `alias` prefixes the
// columns ("t." for the outer query).
std::string order_clause(table_schema const& table, column const* by, std::string_view dir, std::string_view alias)
{
    std::string const key = std::string(alias) + quote_identifier(table.columns.front().name);
    if(!by)
        return " ORDER BY " + key;
    return " ORDER BY " + std::string(alias) + quote_identifier(by->name) + " " + std::string(dir) + ", " + key;
}

search_query finish_search(table_schema const& table, sql_query where, column const* order_by, std::string_view dir,
    std::int64_t limit, std::int64_t offset)
{
    std::string const name = quote_identifier(table.meta->name);
    search_query s;
    s.count.sql = "SELECT count(*) FROM " + name + where.sql;
    s.count.params = where.params;
    // Sort and cut the page on rowids, then fetch only the page's rows: the
    // sorter then carries two values per row instead of every column of every
    // matching row (datos_relevantes has 80+), several times faster.
    s.page.sql = "SELECT t.* FROM (SELECT rowid AS k FROM " + name + where.sql +
        order_clause(table, order_by, dir, "") + " LIMIT ? OFFSET ?) AS page CROSS JOIN " + name +
        " AS t ON t.rowid = page.k" + order_clause(table, order_by, dir, "t.");
    s.page.params = std::move(where.params);
    s.page.params.emplace_back(limit);
    s.page.params.emplace_back(offset);
    s.limit = limit;
    s.offset = offset;
    return s;
}

} // namespace

checked<search_query> make_list_query(table_schema const& table, std::optional<std::string_view> limit_text,
    std::optional<std::string_view> offset_text, limits const& lim)
{
    auto const page = parse_page(limit_text, offset_text, lim);
    if(auto const* e = std::get_if<api_error>(&page))
        return *e;
    std::int64_t limit = std::get<0>(page).first, offset = std::get<0>(page).second;
    return finish_search(table, {}, nullptr, "ASC", limit, offset);
}

checked<search_query> make_search_query(table_schema const& table, json::value const& body, limits const& lim)
{
    auto objr = body_object(body);
    if(auto* e = std::get_if<api_error>(&objr))
        return *e;
    json::object const& obj = *std::get<json::object const*>(objr);
    if(auto e = check_keys(obj, {"filters", "order_by", "order_dir", "limit", "offset"}, ""))
        return *e;

    auto const page = read_page(obj, lim);
    if(auto const* e = std::get_if<api_error>(&page))
        return *e;
    std::int64_t limit = std::get<0>(page).first, offset = std::get<0>(page).second;

    sql_query where;
    if(auto e = append_where(where, table, obj.if_contains("filters"), lim))
        return *e;

    std::string_view dir = "ASC";
    if(auto const* d = obj.if_contains("order_dir"); d && !d->is_null())
    {
        auto const* s = d->if_string();
        if(!s || (*s != "asc" && *s != "desc"))
            return unprocessable("order_dir: debe ser \"asc\" o \"desc\"; recibido " + json_text(*d));
        dir = *s == "desc" ? "DESC" : "ASC";
    }
    column const* order_by = nullptr;
    if(auto const* ob = obj.if_contains("order_by"); ob && !ob->is_null())
    {
        auto const* s = ob->if_string();
        if(!s)
            return unprocessable("order_by: debe ser el nombre de un campo; recibido " + std::string(kind_name(*ob)));
        order_by = table.find(*s);
        if(!order_by)
            return unprocessable("order_by: campo desconocido '" + std::string(*s) + "' en la tabla " +
                std::string(table.meta->name));
    }
    return finish_search(table, std::move(where), order_by, dir, limit, offset);
}

checked<aggregate_query> make_aggregate_query(table_schema const& table, json::value const& body, limits const& lim)
{
    auto objr = body_object(body);
    if(auto* e = std::get_if<api_error>(&objr))
        return *e;
    json::object const& obj = *std::get<json::object const*>(objr);
    if(auto e = check_keys(obj, {"group_by", "metrics", "filters"}, ""))
        return *e;

    aggregate_query a;
    a.max_groups = lim.max_limit;
    std::string select;
    if(auto const* g = obj.if_contains("group_by"); g && !g->is_null())
    {
        auto const* s = g->if_string();
        if(!s)
            return unprocessable("group_by: debe ser el nombre de un campo o null; recibido " +
                std::string(kind_name(*g)));
        column const* col = table.find(*s);
        if(!col)
            return unprocessable("group_by: campo desconocido '" + std::string(*s) + "' en la tabla " +
                std::string(table.meta->name));
        a.group_by = col->name;
        select = quote_identifier(col->name);
    }

    json::array default_metrics{json::object{{"op", "count"}}};
    json::array const* metrics = &default_metrics;
    if(auto const* m = obj.if_contains("metrics"); m && !m->is_null())
    {
        metrics = m->if_array();
        if(!metrics || metrics->empty() || metrics->size() > 10)
            return unprocessable("metrics: debe ser una lista de 1 a 10 métricas {\"op\", \"field\"}");
    }
    std::size_t i = 0;
    for(auto const& mv : *metrics)
    {
        std::string const where = "metrics[" + std::to_string(i++) + "]";
        auto const* m = mv.if_object();
        if(!m)
            return unprocessable(where + ": debe ser un objeto {\"op\", \"field\"}");
        if(auto e = check_keys(*m, {"op", "field"}, where))
            return *e;
        auto const* op_v = m->if_contains("op");
        std::string_view op = op_v && op_v->is_string() ? std::string_view(op_v->get_string()) : "";
        bool const needs_field = op != "count";
        if(op != "count" && op != "sum" && op != "avg" && op != "min" && op != "max")
            return unprocessable(where + ".op: debe ser uno de count, sum, avg, min, max; recibido " +
                (op_v ? json_text(*op_v) : std::string("nada")));
        auto const* field_v = m->if_contains("field");
        column const* col = nullptr;
        if(field_v && !field_v->is_null())
        {
            if(!field_v->is_string() || !(col = table.find(field_v->get_string())))
                return unprocessable(where + ".field: campo desconocido " + json_text(*field_v) + " en la tabla " +
                    std::string(table.meta->name));
        }
        if(needs_field && !col)
            return unprocessable(where + ".field: obligatorio con la métrica " + std::string(op));
        if((op == "sum" || op == "avg") && col->kind == column_kind::text)
            return unprocessable(where + ".field: '" + col->name + "' no es numérico; " + std::string(op) +
                " necesita un campo numérico");
        std::string const name = col ? std::string(op) + "_" + col->name : std::string(op);
        std::string const expr = col ? std::string(op) + "(" + quote_identifier(col->name) + ")"
                                     : std::string("count(*)");
        if(!select.empty())
            select += ", ";
        select += expr;
        a.metric_names.push_back(name);
    }

    sql_query where;
    if(auto e = append_where(where, table, obj.if_contains("filters"), lim))
        return *e;

    a.groups.sql = "SELECT " + select + " FROM " + quote_identifier(table.meta->name) + where.sql;
    if(a.group_by)
        // Largest first by the first metric; ties by value so the order is stable.
        a.groups.sql += " GROUP BY 1 ORDER BY 2 DESC, 1 ASC LIMIT " + std::to_string(a.max_groups + 1);
    a.groups.params = std::move(where.params);
    return a;
}

namespace {

checked<distinct_query> finish_distinct(table_schema const& table, column const& col, sql_query where,
    std::int64_t limit, std::int64_t offset)
{
    std::string const name = quote_identifier(table.meta->name);
    std::string const ident = quote_identifier(col.name);
    distinct_query d;
    d.field = col.name;
    d.count.sql = "SELECT count(*) FROM (SELECT 1 FROM " + name + where.sql + " GROUP BY " + ident + ")";
    d.count.params = where.params;
    // Reading order: SQLite puts numbers before text; NOCASE folds ASCII
    // letters, BINARY breaks the ties it leaves; NULL goes last.
    d.page.sql = "SELECT " + ident + ", count(*) FROM " + name + where.sql + " GROUP BY " + ident + " ORDER BY " +
        ident + " IS NULL, " + ident + " COLLATE NOCASE, " + ident + " LIMIT ? OFFSET ?";
    d.page.params = std::move(where.params);
    d.page.params.emplace_back(limit);
    d.page.params.emplace_back(offset);
    d.limit = limit;
    d.offset = offset;
    return d;
}

checked<column const*> distinct_field(table_schema const& table, std::optional<std::string_view> field)
{
    if(!field || field->empty())
        return unprocessable("field: obligatorio, el nombre de un campo de la tabla " + std::string(table.meta->name));
    column const* col = table.find(*field);
    if(!col)
        return unprocessable("field: campo desconocido '" + std::string(*field) + "' en la tabla " +
            std::string(table.meta->name));
    return col;
}

} // namespace

checked<distinct_query> make_distinct_query(table_schema const& table, std::optional<std::string_view> field,
    std::optional<std::string_view> limit_text, std::optional<std::string_view> offset_text, limits const& lim)
{
    auto col = distinct_field(table, field);
    if(auto* e = std::get_if<api_error>(&col))
        return *e;
    auto const page = parse_page(limit_text, offset_text, lim);
    if(auto const* e = std::get_if<api_error>(&page))
        return *e;
    std::int64_t limit = std::get<0>(page).first, offset = std::get<0>(page).second;
    return finish_distinct(table, *std::get<column const*>(col), {}, limit, offset);
}

checked<distinct_query> make_distinct_query(table_schema const& table, json::value const& body, limits const& lim)
{
    auto objr = body_object(body);
    if(auto* e = std::get_if<api_error>(&objr))
        return *e;
    json::object const& obj = *std::get<json::object const*>(objr);
    if(auto e = check_keys(obj, {"field", "filters", "limit", "offset"}, ""))
        return *e;

    std::optional<std::string_view> field;
    if(auto const* f = obj.if_contains("field"); f && !f->is_null())
    {
        if(!f->is_string())
            return unprocessable("field: debe ser el nombre de un campo; recibido " + std::string(kind_name(*f)));
        field = f->get_string();
    }
    auto col = distinct_field(table, field);
    if(auto* e = std::get_if<api_error>(&col))
        return *e;

    auto const page = read_page(obj, lim);
    if(auto const* e = std::get_if<api_error>(&page))
        return *e;
    std::int64_t limit = std::get<0>(page).first, offset = std::get<0>(page).second;

    sql_query where;
    if(auto e = append_where(where, table, obj.if_contains("filters"), lim))
        return *e;
    return finish_distinct(table, *std::get<column const*>(col), std::move(where), limit, offset);
}

sql_query make_table_counts_query(database_schema const& schema)
{
    sql_query q{"SELECT ", {}};
    bool first = true;
    for(auto const& t : schema.tables)
    {
        if(!first)
            q.sql += ", ";
        first = false;
        q.sql += "(SELECT count(*) FROM " + quote_identifier(t.meta->name) + ")";
    }
    return q;
}

std::string_view column_kind_name(column_kind k) noexcept
{
    switch(k)
    {
    case column_kind::integer: return "integer";
    case column_kind::real: return "real";
    case column_kind::text: return "text";
    }
    return "text";
}

// ---------------------------------------------------------------------------
// SQL functions

namespace {

void casefold_function(sqlite3_context* ctx, int, sqlite3_value** argv)
{
    if(sqlite3_value_type(argv[0]) == SQLITE_NULL)
    {
        sqlite3_result_null(ctx);
        return;
    }
    auto const* p = sqlite3_value_text(argv[0]);
    int const n = sqlite3_value_bytes(argv[0]);
    std::string out(reinterpret_cast<char const*>(p), static_cast<std::size_t>(n));
    for(std::size_t i = 0; i < out.size(); ++i)
    {
        auto& c = reinterpret_cast<unsigned char&>(out[i]);
        if(c >= 'A' && c <= 'Z')
            c = static_cast<unsigned char>(c + 32);
        else if(c == 0xC3 && i + 1 < out.size())
        {
            // U+00C0..U+00DE are C3 80..C3 9E in UTF-8; lower case is +0x20, but for × (C3 97).
            auto& next = reinterpret_cast<unsigned char&>(out[i + 1]);
            if(next >= 0x80 && next <= 0x9E && next != 0x97)
                next = static_cast<unsigned char>(next + 0x20);
            ++i;
        }
    }
    sqlite3_result_text64(ctx, out.data(), out.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

} // namespace

void register_functions(agentio::sqlite::connection& db)
{
    sqlite3_create_function_v2(db.native_handle(), "casefold", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
        nullptr, &casefold_function, nullptr, nullptr, nullptr);
}

} // namespace portfolio::api
