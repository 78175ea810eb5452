// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "api/rest_api.hpp"

#include <agentio/detail/log_text.hpp>
#include <agentio/json_text.hpp>

#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>
#include <boost/url/parse.hpp>

#include <cstdio>

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
    std::fprintf(stderr, "agentio-portfolio: database error (%s): %s\n", agentio::detail::log_text(what).c_str(),
        agentio::detail::log_text(c.last_error_message()).c_str());
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



api_reply method_not_allowed(std::string_view allow)
{
    auto r = error_reply(405, "Método no permitido; usa " + std::string(allow));
    r.allow = allow;
    return r;
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
        return api_error{400, "JSON mal formado en el cuerpo de la petición (byte " + std::to_string(used) +
                "): " + ec.message()};
    return p.release();
}

rest_api::rest_api(std::shared_ptr<database_schema const> schema, agentio::sqlite::query_pool& pool, limits lim)
    : schema_(std::move(schema))
    , pool_(&pool)
    , limits_(lim)
{
}

agentio::http::response make_json_response(api_reply reply, agentio::http::request const& req)
{
    agentio::http::response res{static_cast<bhttp::status>(reply.status), req.version()};
    res.set(bhttp::field::server, "agentio-portfolio");
    res.set(bhttp::field::content_type, "application/json");
    if(!reply.allow.empty())
        res.set(bhttp::field::allow, reply.allow);
    res.keep_alive(req.keep_alive());
    res.body() = std::move(reply.body);
    res.prepare_payload();
    return res;
}

asio::awaitable<bhttp::message_generator> rest_api::operator()(agentio::http::request&& req)
{
    api_reply reply = co_await route(req);
    co_return make_json_response(std::move(reply), req);
}

asio::awaitable<api_reply> rest_api::route(agentio::http::request const& req)
{
    auto const url = boost::urls::parse_origin_form(req.target());
    if(!url)
        co_return error_reply(400, "URL no válida: " + std::string(req.target()));

    std::vector<std::string> path(url->segments().begin(), url->segments().end());
    while(!path.empty() && path.back().empty())
        path.pop_back();
    if(path.size() < 3 || path[0] != "api" || path[1] != "v1")
        co_return error_reply(404, "Ruta no encontrada: " + std::string(url->path()));
    path.erase(path.begin(), path.begin() + 2);

    auto const method = req.method();
    bool const is_get = method == bhttp::verb::get;
    bool const is_post = method == bhttp::verb::post;
    auto const& schema = *schema_;
    auto const lim = limits_;
    auto const schema_ref = schema_; // keeps the schema alive in work on the pool

    // Work for the pool is always a named local moved in, never a temporary in
    // the co_await expression: GCC 12 relocates such a temporary's members
    // bitwise into the coroutine frame, and a short std::string captured by
    // it then points into a frame that is gone (caught by ASan).
    auto on_pool = [this](auto& work) { return pool_->async_run(std::move(work), asio::use_awaitable); };

    // GET /health
    if(path[0] == "health" && path.size() == 1)
    {
        if(!is_get)
            co_return method_not_allowed("GET");
        auto work = [](connection& c) {
            return guarded(c, "health", [&] {
                scalar(c, {"SELECT count(*) FROM sqlite_schema", {}});
                return api_reply{200, "{\"status\":\"ok\",\"tablas\":" + std::to_string(tables.size()) + "}"};
            });
        };
        co_return co_await on_pool(work);
    }

    // GET /portfolio/{id}, POST /portfolio/search
    if(path[0] == "portfolio" && path.size() == 2)
    {
        if(path[1] == "search")
        {
            if(!is_post)
                co_return method_not_allowed("POST");
            auto body = parse_json_body(req.body());
            if(auto* e = std::get_if<api_error>(&body))
                co_return error_reply(*e);
            auto const* obj = std::get<json::value>(body).if_object();
            json::array const* ids = nullptr;
            if(obj)
            {
                for(auto const& kv : *obj)
                    if(kv.key() != "portfolio_ids")
                        co_return error_reply(422, std::string(kv.key()) +
                                ": campo desconocido (admitido: portfolio_ids)");
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
            auto work = [schema_ref, pids = std::move(pids)](connection& c) {
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
                    r.body = "{\"total\":" + std::to_string(found) + ",\"data\":[" + data + "],\"not_found\":[" +
                        missing + "]}";
                    return r;
                });
            };
            co_return co_await on_pool(work);
        }
        if(!is_get)
            co_return method_not_allowed("GET");
        auto work = [schema_ref, pid = path[1]](connection& c) {
            return guarded(c, "portfolio", [&] {
                api_reply r;
                if(!append_portfolio(c, *schema_ref, pid, r.body))
                    return error_reply(404, "No se encontraron datos para " + pid);
                return r;
            });
        };
        co_return co_await on_pool(work);
    }

    // GET /tables, GET /tables/{prefix}
    if(path[0] == "tables")
    {
        if(path.size() > 2)
            co_return error_reply(404, "Ruta no encontrada: " + std::string(url->path()));
        if(!is_get)
            co_return method_not_allowed("GET");
        if(path.size() == 1)
        {
            auto work = [schema_ref, q = make_table_counts_query(schema)](connection& c) {
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
            co_return co_await on_pool(work);
        }
        table_schema const* one = schema.by_prefix(path[1]);
        if(!one)
            co_return error_reply(404, "Tabla no encontrada: '" + path[1] + "'. Disponibles: " + table_list());
        auto work = [schema_ref, one](connection& c) {
            return guarded(c, "table", [&] {
                api_reply r;
                append_table(r.body, *one,
                    scalar(c, {"SELECT count(*) FROM " + quote_identifier(one->meta->name), {}}), true);
                return r;
            });
        };
        co_return co_await on_pool(work);
    }

    table_schema const* table = schema.by_prefix(path[0]);
    if(!table)
        co_return error_reply(404, "Tabla no encontrada: '" + path[0] + "'. Disponibles: " + table_list());

    // GET /{prefix}
    if(path.size() == 1)
    {
        if(!is_get)
            co_return method_not_allowed("GET");
        std::optional<std::string> limit, offset;
        for(auto const p : url->params())
        {
            if(p.key == "limit")
                limit = p.value;
            else if(p.key == "offset")
                offset = p.value;
        }
        auto q = make_list_query(*table, limit, offset, lim);
        if(auto* e = std::get_if<api_error>(&q))
            co_return error_reply(*e);
        auto work = [q = std::move(std::get<search_query>(q))](connection& c) { return run_search(c, q); };
        co_return co_await on_pool(work);
    }

    // POST /{prefix}/search, POST /{prefix}/aggregate
    if(path.size() == 2 && (path[1] == "search" || path[1] == "aggregate"))
    {
        if(!is_post)
            co_return method_not_allowed("POST");
        if(!table->meta->soporta_busqueda)
            co_return error_reply(404, "La tabla '" + std::string(table->meta->name) +
                    "' no admite búsqueda con filtros; usa GET /api/v1/" + std::string(table->meta->prefix) +
                    "?limit=&offset=");
        auto body = parse_json_body(req.body());
        if(auto* e = std::get_if<api_error>(&body))
            co_return error_reply(*e);
        if(path[1] == "search")
        {
            auto q = make_search_query(*table, std::get<json::value>(body), lim);
            if(auto* e = std::get_if<api_error>(&q))
                co_return error_reply(*e);
            auto work = [q = std::move(std::get<search_query>(q))](connection& c) { return run_search(c, q); };
            co_return co_await on_pool(work);
        }
        auto q = make_aggregate_query(*table, std::get<json::value>(body), lim);
        if(auto* e = std::get_if<api_error>(&q))
            co_return error_reply(*e);
        auto work = [q = std::move(std::get<aggregate_query>(q))](connection& c) { return run_aggregate(c, q); };
        co_return co_await on_pool(work);
    }

    // GET /{prefix}/distinct?field=&limit=&offset= (every table), POST /{prefix}/distinct (tables with search)
    if(path.size() == 2 && path[1] == "distinct")
    {
        if(is_get)
        {
            std::optional<std::string> field, limit, offset;
            for(auto const p : url->params())
            {
                if(p.key == "field")
                    field = p.value;
                else if(p.key == "limit")
                    limit = p.value;
                else if(p.key == "offset")
                    offset = p.value;
                else
                    co_return error_reply(422, p.key + ": parámetro desconocido (admitidos: field, limit, offset)");
            }
            auto q = make_distinct_query(*table, field, limit, offset, lim);
            if(auto* e = std::get_if<api_error>(&q))
                co_return error_reply(*e);
            auto work = [q = std::move(std::get<distinct_query>(q))](connection& c) { return run_distinct(c, q); };
            co_return co_await on_pool(work);
        }
        if(!is_post)
            co_return method_not_allowed("GET, POST");
        if(!table->meta->soporta_busqueda)
            co_return error_reply(404, "La tabla '" + std::string(table->meta->name) +
                    "' no admite búsqueda con filtros; usa GET /api/v1/" + std::string(table->meta->prefix) +
                    "/distinct?field=");
        auto body = parse_json_body(req.body());
        if(auto* e = std::get_if<api_error>(&body))
            co_return error_reply(*e);
        auto q = make_distinct_query(*table, std::get<json::value>(body), lim);
        if(auto* e = std::get_if<api_error>(&q))
            co_return error_reply(*e);
        auto work = [q = std::move(std::get<distinct_query>(q))](connection& c) { return run_distinct(c, q); };
        co_return co_await on_pool(work);
    }

    if(!is_get)
        co_return method_not_allowed("GET");

    // GET /parametros/{nombre}
    if(path.size() == 2 && table->meta->name == "parametros" && !all_digits(path[1]))
    {
        if(!table->has_column("nombre_parametro") || !table->has_column("valor"))
            co_return error_reply(404, "La tabla parametros no tiene las columnas nombre_parametro y valor");
        auto work = [schema_ref, nombre = path[1]](connection& c) {
            return guarded(c, "parametros", [&] {
                auto s = prepare(c, {"SELECT valor FROM parametros WHERE nombre_parametro = ? ORDER BY orden, id",
                                        {nombre}});
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
        co_return co_await on_pool(work);
    }

    // GET /{prefix}/{id}
    if(path.size() == 2)
    {
        if(!all_digits(path[1]))
            co_return error_reply(422, "id: debe ser un número entero; recibido '" + path[1] + "'");
        std::int64_t const id = std::stoll(path[1]);
        auto work = [schema_ref, table, id](connection& c) {
            return guarded(c, "by id", [&] {
                auto s = prepare(c, where_equals(*table, table->columns.front().name, id));
                if(!step(s))
                    return error_reply(404, "No existe el registro " + std::to_string(id) + " en la tabla " +
                        std::string(table->meta->name));
                api_reply r;
                s.append_row_json(r.body);
                return r;
            });
        };
        co_return co_await on_pool(work);
    }

    // GET /{prefix}/portfolio/{portfolio_id}
    if(path.size() == 3 && path[1] == "portfolio")
    {
        if(!table->has_column("portfolio_id"))
            co_return error_reply(404, "La tabla '" + std::string(table->meta->name) +
                    "' no está asociada a iniciativas (no tiene portfolio_id)");
        auto work = [schema_ref, table, pid = path[2]](connection& c) {
            return guarded(c, "by portfolio", [&] {
                api_reply r{200, "["};
                append_rows(c, where_equals(*table, "portfolio_id", pid, " ORDER BY id"), r.body);
                r.body.push_back(']');
                return r;
            });
        };
        co_return co_await on_pool(work);
    }

    co_return error_reply(404, "Ruta no encontrada: " + std::string(url->path()));
}

} // namespace portfolio::api
