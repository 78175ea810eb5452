// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "app/config.hpp"

#include <cstdlib>
#include <fstream>

namespace portfolio {

std::optional<std::string> env(char const* name)
{
    char const* v = std::getenv(name);
    if(!v || !*v)
        return std::nullopt;
    return std::string(v);
}

std::filesystem::path default_db_path()
{
    if(auto p = env("PORTFOLIO_DB"))
        return *p;
    return "data/portfolio.db";
}

} // namespace portfolio
