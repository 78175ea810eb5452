// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The tools the agent tests give the model: the fixtures' contar_iniciativas
// (with counters and an optional delay) and sumar_presupuesto.
#pragma once

#include <agentio/tool.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/describe.hpp>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <vector>
#include <chrono>
#include <string>

namespace asio = boost::asio;

namespace agent_test {

// The tool result of the wire fixtures, verbatim: the fake's conditional
// answer looks for it.
constexpr char const* recuento = R"({"En ejecución": 12, "Planificada": 9, "Finalizada": 21, "Cancelada": 5})";

struct shared_counters
{
    std::atomic<int> calls{0};
    std::atomic<int> in_flight{0};
    std::atomic<int> most_in_flight{0};
    std::atomic<bool> cancelled{false};
    // The idempotency keys the tools were called with.
    std::mutex keys_mutex;
    std::vector<std::string> keys;
    // The traceparent each call was given (tool_context::traceparent).
    std::vector<std::string> traceparents;
    // The first call acts (counts) and then hangs, as a call cut by a crash between its effect and its result.
    std::atomic<bool> block_first{false};
    // The same for sumar_presupuesto's first call, counted apart.
    std::atomic<bool> block_first_sum{false};
    std::atomic<int> sums{0};
};

struct contar_iniciativas
{
    static constexpr std::string_view name = "contar_iniciativas";
    static constexpr std::string_view description = "Cuenta iniciativas agrupadas por un campo";
    struct args
    {
        std::string campo_agrupacion;
    };
    shared_counters* counters = nullptr;
    std::chrono::milliseconds delay{0};

    asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context& ctx) const
    {
        {
            std::lock_guard lock(counters->keys_mutex);
            counters->keys.emplace_back(ctx.idempotency_key);
            counters->traceparents.emplace_back(ctx.traceparent);
        }
        int const nth = ++counters->calls;
        counters->most_in_flight = std::max(counters->most_in_flight.load(), ++counters->in_flight);
        asio::steady_timer t(co_await asio::this_coro::executor,
            counters->block_first && nth == 1 ? std::chrono::milliseconds(60000) : delay);
        try
        {
            co_await t.async_wait(asio::use_awaitable);
        }
        catch(boost::system::system_error const&)
        {
            --counters->in_flight;
            counters->cancelled = true;
            throw;
        }
        --counters->in_flight;
        if(a.campo_agrupacion != "estado_de_la_iniciativa")
            co_return agentio::tool_result::json({{"agrupado_por", a.campo_agrupacion}});
        auto r = agentio::tool_result::text(recuento);
        r.summary = "4 grupos";
        co_return r;
    }
};
BOOST_DESCRIBE_STRUCT(contar_iniciativas::args, (), (campo_agrupacion))

struct sumar_presupuesto
{
    static constexpr std::string_view name = "sumar_presupuesto";
    static constexpr std::string_view description = "Suma un importe agrupado por un campo";
    static constexpr bool idempotent = true; // a sum read twice is the same sum
    struct args
    {
        std::string campo_agrupacion;
        std::string campo_importe;
    };
    shared_counters* counters = nullptr;

    asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context& ctx) const
    {
        {
            std::lock_guard lock(counters->keys_mutex);
            counters->keys.emplace_back(ctx.idempotency_key);
        }
        ++counters->calls;
        if(++counters->sums == 1 && counters->block_first_sum)
        {
            asio::steady_timer t(co_await asio::this_coro::executor, std::chrono::seconds(60));
            co_await t.async_wait(asio::use_awaitable);
        }
        co_return agentio::tool_result::json({{"suma_de", a.campo_importe}});
    }
};
BOOST_DESCRIBE_STRUCT(sumar_presupuesto::args, (), (campo_agrupacion, campo_importe))

} // namespace agent_test

template<>
struct agentio::field_traits<agent_test::contar_iniciativas::args>
{
    static constexpr agentio::field_info fields[] = {{.name = "campo_agrupacion", .description = "Campo"}};
};

template<>
struct agentio::field_traits<agent_test::sumar_presupuesto::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "campo_agrupacion", .description = "Campo"},
        {.name = "campo_importe", .description = "Importe", .one_of = {"presupuesto_aprobado", "importe_2025"}},
    };
};

using test_tools = agentio::toolset<agent_test::contar_iniciativas, agent_test::sumar_presupuesto>;
