// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The charts the benchmarks draw: the data of the matplotlib yardstick
// (bench/chart_compare.sh), shared by chart_bench and png_encoder_bench.
#pragma once

#include "charts/chart.hpp"

#include <string>
#include <vector>

namespace portfolio::charts::bench {

inline chart_spec sample(chart_type type)
{
    static std::vector<std::string> const units{"Redes", "Clientes", "Generación", "Distribución", "Comercial",
        "Finanzas", "Personas", "Sistemas", "Ciberseguridad", "Datos", "Compras", "Legal", "Sostenibilidad",
        "Innovación", "Operaciones"};
    static std::vector<double> const v25{4'250'000.5, 3'100'250, 2'900'000, 2'450'999.9, 2'100'000, 1'800'500,
        1'500'000, 1'250'000, 990'000, 870'500, 650'000, 420'000, 310'000, 150'000, 90'000};
    chart_spec s;
    s.type = type;
    s.title = "Importe 2025 por unidad";
    if(type == chart_type::bar || type == chart_type::pie)
    {
        s.categories = units;
        s.series = {{"2025", v25}};
    }
    else
    {
        s.categories = {"2024", "2025", "2026"};
        for(std::size_t i = 0; i < 5; ++i)
            s.series.push_back({units[i], {v25[i] * 0.8, v25[i], v25[i] * 1.1}});
    }
    return s;
}

} // namespace portfolio::charts::bench
