// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#pragma once
// Deterministic generator of the sample Spanish "Portfolio Digital" SQLite database
// (26 tables, see docs/apps/portfolio/data-model.md). Used by `agentio-portfolio init-db PATH`.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

namespace portfolio {

struct generator_options
{
    int initiatives = 850; // number of initiatives (rows of datos_relevantes); valid range 1..100000
    std::uint64_t seed = 20250630;
};

struct generator_report
{
    int initiatives = 0;
    std::map<std::string, long long> rows_per_table; // every one of the 26 tables
};

/// Writes a fresh database at `path` (replacing any file there, atomically: write PATH.tmp then rename).
/// Throws std::runtime_error with a clear message on failure (e.g. directory missing, sqlite error text).
generator_report generate_database(std::filesystem::path const& path, generator_options const& options = {});

} // namespace portfolio
