// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "app/config.hpp"

#include <cstdlib>
#include <fstream>

namespace portfolio {

void load_dotenv(std::filesystem::path const& path)
{
    std::ifstream in(path);
    std::string line;
    while(std::getline(in, line))
    {
        auto const first = line.find_first_not_of(" \t");
        if(first == std::string::npos || line[first] == '#')
            continue;
        auto const eq = line.find('=', first);
        if(eq == std::string::npos)
            continue;
        std::string key = line.substr(first, eq - first);
        std::string value = line.substr(eq + 1);
        if(key.starts_with("export "))
            key = key.substr(7);
        while(!key.empty() && (key.back() == ' ' || key.back() == '\t'))
            key.pop_back();
        // Trailing comments and quotes, as python-dotenv reads them.
        auto const v0 = value.find_first_not_of(" \t");
        value = v0 == std::string::npos ? "" : value.substr(v0);
        if(value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
            value = value.substr(1, value.size() - 2);
        else if(auto hash = value.find(" #"); hash != std::string::npos)
            value.resize(hash);
        while(!value.empty() && (value.back() == ' ' || value.back() == '\t' || value.back() == '\r'))
            value.pop_back();
        if(!key.empty())
            ::setenv(key.c_str(), value.c_str(), 0);
    }
}

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
