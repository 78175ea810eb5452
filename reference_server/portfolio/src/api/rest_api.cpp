// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "api/rest_api.hpp"

#include <agentio/text.hpp>
#include <agentio/json_text.hpp>

#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>
#include <boost/url/parse.hpp>

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <optional>

namespace portfolio::api {

namespace asio = boost::asio;
namespace bhttp = boost::beast::http;
namespace json = boost::json;
using agentio::sqlite::connection;
using agentio::sqlite::statement;

namespace {

api_reply error_reply(int status, std::string_view detail)
{
    api_reply r{status, "{\"detail\":"};
    agentio::append_json_string(r.body, detail);
    r.body.push_back('}');
    return r;
}

api_reply error_reply(api_error const& e)
{
    return error_reply(e.status, e.detail);
}

// Failures of SQL we built ourselves are bugs or a broken file, not client
// mistakes: the client gets a 500 without SQL text, the log gets the details.
api_reply database_failure(connection& c, std::string_view what)
{
    std::fprintf(stderr, "agentio-portfolio: database error (%s): %s\n", agentio::log_text(what).c_str(),
        agentio::log_text(c.last_error_message()).c_str());
    return error_reply(500, "Error interno de la base de datos");
}

struct db_failed
{
};

// Prepares (cached) and binds a query; throws db_failed, caught per request.
statement prepare(connection& c, sql_query const& q)
{
    auto stmt = c.cached(q.sql);
    if(!stmt || !bind_all(*stmt, q.params))
        throw db_failed{};
    return std::move(*stmt);
}

bool step(statement& s)
{
    auto r = s.step();
    if(!r)
        throw db_failed{};
    return *r;
}

// Appends the rows of `q` as comma-separated JSON objects; returns how many.
std::int64_t append_rows(connection& c, sql_query const& q, std::string& out)
{
    auto s = prepare(c, q);
    agentio::sqlite::json_row_writer const writer(s);
    std::int64_t n = 0;
    while(step(s))
    {
        if(n++)
            out.push_back(',');
        writer.append(out);
    }
    return n;
}

std::int64_t scalar(connection& c, sql_query const& q)
{
    auto s = prepare(c, q);
    if(!step(s))
        throw db_failed{};
    return s.column_int64(0);
}

// Runs one request's SQL in one read transaction (one snapshot, one lock)
// and turns a database failure into a 500.
template<class F>
api_reply guarded(connection& c, std::string_view what, F&& f)
{
    try
    {
        agentio::sqlite::read_transaction snapshot(c);
        return f();
    }
    catch(db_failed const&)
    {
        return database_failure(c, what);
    }
}

void append_number(std::string& out, std::int64_t v)
{
    agentio::append_json_number(out, v);
}

api_reply run_search(connection& c, search_query const& q)
{
    return guarded(c, "search", [&] {
        api_reply r;
        r.body.reserve(4096);
        r.body = "{\"total\":";
        append_number(r.body, scalar(c, q.count));
        r.body += ",\"data\":[";
        append_rows(c, q.page, r.body);
        r.body += "],\"limit\":";
        append_number(r.body, q.limit);
        r.body += ",\"offset\":";
        append_number(r.body, q.offset);
        r.body += "}";
        return r;
    });
}

api_reply run_aggregate(connection& c, aggregate_query const& q)
{
    return guarded(c, "aggregate", [&] {
        api_reply r;
        r.body = "{\"group_by\":";
        if(q.group_by)
            agentio::append_json_string(r.body, *q.group_by);
        else
            r.body += "null";
        r.body += ",\"groups\":[";
        auto s = prepare(c, q.groups);
        int const first_metric = q.group_by ? 1 : 0;
        std::int64_t n = 0;
        bool truncated = false;
        while(step(s))
        {
            if(n == q.max_groups)
            {
                truncated = true;
                break;
            }
            if(n++)
                r.body.push_back(',');
            r.body.push_back('{');
            if(q.group_by)
            {
                r.body += "\"valor\":";
                s.append_column_json(r.body, 0);
                r.body.push_back(',');
            }
            for(std::size_t m = 0; m < q.metric_names.size(); ++m)
            {
                if(m)
                    r.body.push_back(',');
                agentio::append_json_string(r.body, q.metric_names[m]);
                r.body.push_back(':');
                s.append_column_json(r.body, first_metric + static_cast<int>(m));
            }
            r.body.push_back('}');
        }
        r.body += "],\"truncated\":";
        r.body += truncated ? "true}" : "false}";
        return r;
    });
}

api_reply run_distinct(connection& c, distinct_query const& q)
{
    return guarded(c, "distinct", [&] {
        api_reply r;
        r.body = "{\"field\":";
        agentio::append_json_string(r.body, q.field);
        r.body += ",\"total\":";
        append_number(r.body, scalar(c, q.count));
        r.body += ",\"data\":[";
        auto s = prepare(c, q.page);
        std::int64_t n = 0;
        while(step(s))
        {
            if(n++)
                r.body.push_back(',');
            r.body += "{\"valor\":";
            s.append_column_json(r.body, 0);
            r.body += ",\"count\":";
            s.append_column_json(r.body, 1);
            r.body.push_back('}');
        }
        r.body += "],\"limit\":";
        append_number(r.body, q.limit);
        r.body += ",\"offset\":";
        append_number(r.body, q.offset);
        r.body += "}";
        return r;
    });
}

// One table as GET /tables lists it; with its columns for GET /tables/{prefix}.
void append_table(std::string& out, table_schema const& t, std::int64_t rows, bool with_columns)
{
    out += "{\"tabla\":";
    agentio::append_json_string(out, t.meta->name);
    out += ",\"prefix\":";
    agentio::append_json_string(out, t.meta->prefix);
    out += ",\"descripcion\":";
    agentio::append_json_string(out, t.meta->descripcion);
    out += ",\"num_registros\":";
    append_number(out, rows);
    out += ",\"soporta_busqueda\":";
    out += t.meta->soporta_busqueda ? "true" : "false";
    if(with_columns)
    {
        out += ",\"campos\":[";
        bool first = true;
        for(auto const& col : t.columns)
        {
            if(!first)
                out.push_back(',');
            first = false;
            out += "{\"nombre\":";
            agentio::append_json_string(out, col.name);
            out += ",\"tipo\":";
            agentio::append_json_string(out, column_kind_name(col.kind));
            out.push_back('}');
        }
        out.push_back(']');
    }
    out.push_back('}');
}

sql_query where_equals(table_schema const& t, std::string_view column, sql_value v, std::string_view tail = "")
{
    return {"SELECT * FROM " + quote_identifier(t.meta->name) + " WHERE " + quote_identifier(column) + " = ?" +
            std::string(tail),
        {std::move(v)}};
}

// {"portfolio_id": ..., "tablas": {...}} for one initiative: 1:1 tables as
// one object (or null), grupos_iniciativas split by role, every other table a
// list. Returns false when nothing mentions the id.
bool append_portfolio(connection& c, database_schema const& schema, std::string const& pid, std::string& out)
{
    std::size_t const start = out.size();
    out += "{\"portfolio_id\":";
    agentio::append_json_string(out, pid);
    out += ",\"tablas\":{";
    std::int64_t rows = 0;
    bool first = true;
    for(auto const& t : schema.tables)
    {
        if(!t.has_column("portfolio_id"))
            continue;
        if(!first)
            out.push_back(',');
        first = false;
        agentio::append_json_string(out, t.meta->name);
        out.push_back(':');
        if(t.meta->one_per_initiative)
        {
            auto s = prepare(c, where_equals(t, "portfolio_id", pid, " LIMIT 1"));
            if(step(s))
            {
                s.append_row_json(out);
                ++rows;
            }
            else
                out += "null";
        }
        else if(t.meta->name == "grupos_iniciativas" && t.has_column("portfolio_id_componente"))
        {
            out += "{\"as_grupo\":[";
            rows += append_rows(c, where_equals(t, "portfolio_id", pid, " ORDER BY id"), out);
            out += "],\"as_componente\":[";
            rows += append_rows(c, where_equals(t, "portfolio_id_componente", pid, " ORDER BY id"), out);
            out += "]}";
        }
        else
        {
            out.push_back('[');
            rows += append_rows(c, where_equals(t, "portfolio_id", pid, " ORDER BY id"), out);
            out.push_back(']');
        }
    }
    out += "}}";
    if(rows == 0)
        out.resize(start);
    return rows != 0;
}

std::string table_list()
{
    std::string s;
    for(auto const& t : tables)
        s += (s.empty() ? "" : ", ") + std::string(t.prefix);
    return s;
}

bool all_digits(std::string_view s)
{
    return !s.empty() && s.size() <= 18 && s.find_first_not_of("0123456789") == std::string_view::npos;
}

using agentio::http::request;
using agentio::http::route_params;
using awaitable_reply = asio::awaitable<api_reply>;

// What the routes' handlers share; each route holds it (a rest_api may move).
struct api_context
{
    std::shared_ptr<database_schema const> schema; // work on the pool holds it too
    agentio::sqlite::query_pool* pool;
    limits lim;

    // Work for the pool is always a named local moved in, never a temporary in
    // the co_await expression: GCC 12 relocates such a temporary's members
    // bitwise into the coroutine frame, and a short std::string captured by
    // it then points into a frame that is gone (caught by ASan).
    template<class Work>
    auto on_pool(Work& work) const
    {
        return pool->async_run(std::move(work), asio::use_awaitable);
    }
};

void set_json_headers(agentio::http::response& res)
{
    res.set(bhttp::field::server, "agentio-portfolio");
    res.set(bhttp::field::content_type, "application/json");
}

// The 404s and 405s the router makes itself, in the shape of the API's own.
void write_error_body(agentio::http::response& res, std::string_view detail)
{
    set_json_headers(res);
    res.body() = error_reply(0, detail).body;
}

// The target was checked on arrival (rest_api::operator()).
boost::urls::url_view url_of(request const& req)
{
    return *boost::urls::parse_origin_form(req.target());
}

// Reads the query's parameters named in `wanted` (the last one given wins);
// returns the first other name, if any.
std::optional<std::string> read_query(request const& req,
    std::initializer_list<std::pair<std::string_view, std::optional<std::string>*>> wanted)
{
    std::optional<std::string> other;
    auto const url = url_of(req);
    for(auto const p : url.params())
    {
        auto const it = std::find_if(wanted.begin(), wanted.end(), [&](auto const& w) { return w.first == p.key; });
        if(it != wanted.end())
            *it->second = p.value;
        else if(!other)
            other = p.key;
    }
    return other;
}

// A path no route takes, named as the client wrote it, percent-decoded.
api_reply route_not_found(request const& req)
{
    return error_reply(404, "Ruta no encontrada: " + url_of(req).path());
}

api_reply table_not_found(std::string_view prefix)
{
    return error_reply(404, "Tabla no encontrada: '" + std::string(prefix) + "'. Disponibles: " + table_list());
}

// Runs a valid query with `run` on the pool, or answers the client's mistake.
template<class Query, class Run>
awaitable_reply run_query(api_context const& api, checked<Query>& q, Run run)
{
    if(auto* e = std::get_if<api_error>(&q))
        co_return error_reply(*e);
    auto work = [query = std::move(std::get<Query>(q)), run](connection& c) { return run(c, query); };
    co_return co_await api.on_pool(work);
}

// GET /health
awaitable_reply health(api_context const& api, request const&, route_params const&)
{
    auto work = [](connection& c) {
        return guarded(c, "health", [&] {
            scalar(c, {"SELECT count(*) FROM sqlite_schema", {}});
            return api_reply{200, "{\"status\":\"ok\",\"tablas\":" + std::to_string(tables.size()) + "}"};
        });
    };
    co_return co_await api.on_pool(work);
}

// POST /portfolio/search {"portfolio_ids": [...]}
awaitable_reply search_portfolios(api_context const& api, request const& req, route_params const&)
{
    auto body = parse_json_body(req.body());
    if(auto* e = std::get_if<api_error>(&body))
        co_return error_reply(*e);
    auto const* obj = std::get<json::value>(body).if_object();
    json::array const* ids = nullptr;
    if(obj)
    {
        for(auto const& kv : *obj)
            if(kv.key() != "portfolio_ids")
                co_return error_reply(422, std::string(kv.key()) + ": campo desconocido (admitido: portfolio_ids)");
        if(auto const* v = obj->if_contains("portfolio_ids"))
            ids = v->if_array();
    }
    if(!ids || ids->empty() || ids->size() > 100)
        co_return error_reply(422, "portfolio_ids: obligatorio, una lista de 1 a 100 identificadores");
    std::vector<std::string> pids;
    for(std::size_t i = 0; i < ids->size(); ++i)
    {
        if(!(*ids)[i].is_string())
            co_return error_reply(422, "portfolio_ids[" + std::to_string(i) + "]: debe ser un texto");
        pids.emplace_back((*ids)[i].get_string());
    }
    auto work = [schema_ref = api.schema, pids = std::move(pids)](connection& c) {
        return guarded(c, "portfolio search", [&] {
            api_reply r;
            std::string data;
            std::string missing;
            std::int64_t found = 0;
            for(auto const& pid : pids)
            {
                std::string one;
                if(append_portfolio(c, *schema_ref, pid, one))
                {
                    data += (found++ ? "," : "") + one;
                }
                else
                {
                    if(!missing.empty())
                        missing.push_back(',');
                    agentio::append_json_string(missing, pid);
                }
            }
            r.body = "{\"total\":" + std::to_string(found) + ",\"data\":[" + data + "],\"not_found\":[" + missing +
                "]}";
            return r;
        });
    };
    co_return co_await api.on_pool(work);
}

// GET /portfolio/{portfolio_id}
awaitable_reply initiative(api_context const& api, request const&, route_params const& params)
{
    auto work = [schema_ref = api.schema, pid = std::string(params["portfolio_id"])](connection& c) {
        return guarded(c, "portfolio", [&] {
            api_reply r;
            if(!append_portfolio(c, *schema_ref, pid, r.body))
                return error_reply(404, "No se encontraron datos para " + pid);
            return r;
        });
    };
    co_return co_await api.on_pool(work);
}

// GET /tables
awaitable_reply table_index(api_context const& api, request const&, route_params const&)
{
    auto work = [schema_ref = api.schema, q = make_table_counts_query(*api.schema)](connection& c) {
        return guarded(c, "tables", [&] {
            auto s = prepare(c, q);
            if(!step(s))
                throw db_failed{};
            api_reply r{200, "{\"total\":"};
            append_number(r.body, static_cast<std::int64_t>(schema_ref->tables.size()));
            r.body += ",\"data\":[";
            int i = 0;
            for(auto const& t : schema_ref->tables)
            {
                if(i)
                    r.body.push_back(',');
                append_table(r.body, t, s.column_int64(i++), false);
            }
            r.body += "]}";
            return r;
        });
    };
    co_return co_await api.on_pool(work);
}

// GET /tables/{prefix}
awaitable_reply table_description(api_context const& api, request const&, route_params const& params)
{
    table_schema const* one = api.schema->by_prefix(params["prefix"]);
    if(!one)
        co_return table_not_found(params["prefix"]);
    auto work = [schema_ref = api.schema, one](connection& c) {
        return guarded(c, "table", [&] {
            api_reply r;
            append_table(r.body, *one, scalar(c, {"SELECT count(*) FROM " + quote_identifier(one->meta->name), {}}),
                true);
            return r;
        });
    };
    co_return co_await api.on_pool(work);
}

// What no other route takes under /api/v1/{name}: a name that is no table is an
// unknown table; under a table or /tables, the rest of the path is unknown.
awaitable_reply unknown_path(api_context const& api, request const& req, route_params const& params)
{
    std::string_view const name = params["name"];
    if(api.schema->by_prefix(name) || name == "tables")
        co_return route_not_found(req);
    co_return table_not_found(name);
}

// GET /{prefix}?limit=&offset=
awaitable_reply list_rows(api_context const& api, table_schema const& t, request const& req, route_params const&)
{
    std::optional<std::string> limit, offset;
    read_query(req, {{"limit", &limit}, {"offset", &offset}}); // others are ignored
    auto q = make_list_query(t, limit, offset, api.lim);
    co_return co_await run_query(api, q, run_search);
}

// POST /{prefix}/search, /aggregate and /distinct: tables with search only
// (`instead` is what the others offer); the JSON body makes the query.
template<class Make, class Run>
awaitable_reply filtered(api_context const& api, table_schema const& t, request const& req, std::string_view instead,
    Make make, Run run)
{
    if(!t.meta->soporta_busqueda)
        co_return error_reply(404,
            "La tabla '" + std::string(t.meta->name) + "' no admite búsqueda con filtros; usa GET /api/v1/" +
                std::string(t.meta->prefix) + std::string(instead));
    auto body = parse_json_body(req.body());
    if(auto* e = std::get_if<api_error>(&body))
        co_return error_reply(*e);
    auto q = make(t, std::get<json::value>(body), api.lim);
    co_return co_await run_query(api, q, run);
}

awaitable_reply search_rows(api_context const& api, table_schema const& t, request const& req, route_params const&)
{
    return filtered(api, t, req, "?limit=&offset=", make_search_query, run_search);
}

awaitable_reply aggregate_rows(api_context const& api, table_schema const& t, request const& req, route_params const&)
{
    return filtered(api, t, req, "?limit=&offset=", make_aggregate_query, run_aggregate);
}

// POST /{prefix}/distinct (tables with search)
awaitable_reply distinct_filtered(api_context const& api, table_schema const& t, request const& req,
    route_params const&)
{
    auto const make = [](table_schema const& table, json::value const& body, limits const& lim) {
        return make_distinct_query(table, body, lim);
    };
    return filtered(api, t, req, "/distinct?field=", make, run_distinct);
}

// GET /{prefix}/distinct?field=&limit=&offset= (every table)
awaitable_reply distinct_values(api_context const& api, table_schema const& t, request const& req, route_params const&)
{
    std::optional<std::string> field, limit, offset;
    if(auto const other = read_query(req, {{"field", &field}, {"limit", &limit}, {"offset", &offset}}))
        co_return error_reply(422, *other + ": parámetro desconocido (admitidos: field, limit, offset)");
    auto q = make_distinct_query(t, field, limit, offset, api.lim);
    co_return co_await run_query(api, q, run_distinct);
}

// GET /{prefix}/{id}
awaitable_reply row_by_id(api_context const& api, table_schema const& t, request const&, route_params const& params)
{
    std::string const text(params["id"]);
    if(!all_digits(text))
        co_return error_reply(422, "id: debe ser un número entero; recibido '" + text + "'");
    std::int64_t const id = std::stoll(text);
    auto work = [schema_ref = api.schema, table = &t, id](connection& c) {
        return guarded(c, "by id", [&] {
            auto s = prepare(c, where_equals(*table, table->columns.front().name, id));
            if(!step(s))
                return error_reply(404,
                    "No existe el registro " + std::to_string(id) + " en la tabla " + std::string(table->meta->name));
            api_reply r;
            s.append_row_json(r.body);
            return r;
        });
    };
    co_return co_await api.on_pool(work);
}

// GET /parametros/{nombre}: the values of one parameter, in order.
awaitable_reply parameter_values(api_context const& api, table_schema const& t, request const&,
    route_params const& params)
{
    if(!t.has_column("nombre_parametro") || !t.has_column("valor"))
        co_return error_reply(404, "La tabla parametros no tiene las columnas nombre_parametro y valor");
    auto work = [schema_ref = api.schema, nombre = std::string(params["id"])](connection& c) {
        return guarded(c, "parametros", [&] {
            auto s = prepare(c,
                {"SELECT valor FROM parametros WHERE nombre_parametro = ? ORDER BY orden, id", {nombre}});
            api_reply r{200, "{\"nombre\":"};
            agentio::append_json_string(r.body, nombre);
            r.body += ",\"valores\":[";
            std::int64_t n = 0;
            while(step(s))
            {
                if(n++)
                    r.body.push_back(',');
                s.append_column_json(r.body, 0);
            }
            if(n == 0)
                return error_reply(404, "No hay valores para el parámetro '" + nombre + "'");
            r.body += "]}";
            return r;
        });
    };
    co_return co_await api.on_pool(work);
}

// GET /parametros/{id} by id, any other /parametros/{nombre} by name.
awaitable_reply parameter_or_row(api_context const& api, table_schema const& t, request const& req,
    route_params const& params)
{
    return all_digits(params["id"]) ? row_by_id(api, t, req, params) : parameter_values(api, t, req, params);
}

// GET /{prefix}/portfolio/{portfolio_id}
awaitable_reply rows_of_initiative(api_context const& api, table_schema const& t, request const&,
    route_params const& params)
{
    if(!t.has_column("portfolio_id"))
        co_return error_reply(404,
            "La tabla '" + std::string(t.meta->name) + "' no está asociada a iniciativas (no tiene portfolio_id)");
    auto work = [schema_ref = api.schema, table = &t, pid = std::string(params["portfolio_id"])](connection& c) {
        return guarded(c, "by portfolio", [&] {
            api_reply r{200, "["};
            append_rows(c, where_equals(*table, "portfolio_id", pid, " ORDER BY id"), r.body);
            r.body.push_back(']');
            return r;
        });
    };
    co_return co_await api.on_pool(work);
}

} // namespace

checked<json::value> parse_json_body(std::string_view body)
{
    if(body.find_first_not_of(" \t\r\n") == std::string::npos)
        return json::value(json::object());
    json::stream_parser p;
    boost::system::error_code ec;
    std::size_t const used = p.write(body.data(), body.size(), ec);
    if(!ec)
        p.finish(ec);
    if(ec)
        return api_error{400,
            "JSON mal formado en el cuerpo de la petición (byte " + std::to_string(used) + "): " + ec.message()};
    return p.release();
}

agentio::http::response make_json_response(api_reply reply, agentio::http::request const& req)
{
    agentio::http::response res{static_cast<bhttp::status>(reply.status), req.version()};
    set_json_headers(res);
    res.keep_alive(req.keep_alive());
    res.body() = std::move(reply.body);
    res.prepare_payload();
    return res;
}

rest_api::rest_api(std::shared_ptr<database_schema const> schema, agentio::sqlite::query_pool& pool, limits lim)
    : routes_({.method_not_allowed = "Método no permitido; usa {allow}",
          .error_body = write_error_body,
          .head_from_get = false,        // HEAD has always been a 405 here
          .first_pattern_decides = true, // GET /{prefix}/search is a 405, not an id
          .ignore_trailing_slash = true})
{
    auto const api = std::make_shared<api_context const>(api_context{std::move(schema), &pool, lim});
    // Handlers answer an api_reply; those of a table's routes are given the table too.
    auto answer = [api](auto handler) {
        return [api, handler](request&& req, route_params const& params) -> asio::awaitable<bhttp::message_generator> {
            api_reply r = co_await handler(*api, req, params);
            co_return make_json_response(std::move(r), req);
        };
    };
    auto on_table = [&](table_schema const& table, auto handler) {
        return answer([t = &table, handler](api_context const& a, request const& req, route_params const& params) {
            return handler(a, *t, req, params);
        });
    };
    routes_.get("/api/v1/health", answer(health));
    routes_.post("/api/v1/portfolio/search", answer(search_portfolios));
    routes_.get("/api/v1/portfolio/{portfolio_id}", answer(initiative));
    routes_.get("/api/v1/tables", answer(table_index));
    routes_.get("/api/v1/tables/{prefix}", answer(table_description));
    for(auto const& t : api->schema->tables)
    {
        // Literal prefixes, not `{prefix}`: an unknown table is a 404 whatever
        // the method (unknown_path), where a pattern would make it a 405.
        std::string const base = "/api/v1/" + std::string(t.meta->prefix);
        routes_.get(base, on_table(t, list_rows));
        routes_.post(base + "/search", on_table(t, search_rows));
        routes_.post(base + "/aggregate", on_table(t, aggregate_rows));
        routes_.get(base + "/distinct", on_table(t, distinct_values));
        routes_.post(base + "/distinct", on_table(t, distinct_filtered));
        routes_.get(base + "/portfolio/{portfolio_id}", on_table(t, rows_of_initiative));
        routes_.get(base + "/{id}", on_table(t, t.meta->name == "parametros" ? parameter_or_row : row_by_id));
    }
    routes_.any("/api/v1/{name}", answer(unknown_path));
    routes_.any("/api/v1/{name}/{rest...}", answer(unknown_path));
    routes_.fallback(answer([](api_context const&, request const& req, route_params const&) -> awaitable_reply {
        co_return route_not_found(req);
    }));
}

asio::awaitable<std::optional<bhttp::message_generator>> rest_api::operator()(agentio::http::request&& req,
    agentio::http::any_stream& stream) const
{
    // Handlers read the target with Boost.URL: one it refuses is a 400 before any route.
    if(!boost::urls::parse_origin_form(req.target()))
        co_return bhttp::message_generator(
            make_json_response(error_reply(400, "URL no válida: " + std::string(req.target())), req));
    co_return co_await routes_(std::move(req), stream);
}

} // namespace portfolio::api
