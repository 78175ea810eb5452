//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What the in-process benchmarks share: the portfolio's counting tool (the
// fake LLM's two-round scenarios call it) and percentiles of timings.
//

#ifndef AGENTIO_BENCH_SUPPORT_HPP
#define AGENTIO_BENCH_SUPPORT_HPP

#include <agentio/tool.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/describe.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

// Answers at once with fixed counts: the benchmarks time the framework, not a query.
struct contar_iniciativas
{
    static constexpr std::string_view name = "contar_iniciativas";
    static constexpr std::string_view description = "Cuenta iniciativas";
    struct args
    {
        std::string campo_agrupacion;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context&) const
    {
        co_return agentio::tool_result::text(
            R"({"En ejecución": 12, "Planificada": 9, "Finalizada": 21, "Cancelada": 5})");
    }
};
BOOST_DESCRIBE_STRUCT(contar_iniciativas::args, (), (campo_agrupacion))

struct percentiles
{
    double median = 0, p99 = 0;
};

// The median and the 99th percentile of samples (at least one).
inline percentiles percentiles_of(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v[std::min(v.size() - 1, v.size() * 99 / 100)]};
}

inline double median(std::vector<double> v)
{
    return percentiles_of(std::move(v)).median;
}

} // namespace bench

template<>
struct agentio::field_traits<bench::contar_iniciativas::args>
{
    static constexpr agentio::field_info fields[] = {{.name = "campo_agrupacion", .description = "Campo"}};
};

#endif
