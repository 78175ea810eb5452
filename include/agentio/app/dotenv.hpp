//
// agentio/app/dotenv.hpp
// ~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_APP_DOTENV_HPP
#define AGENTIO_APP_DOTENV_HPP

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace agentio::app {

/** Sets the variables a `.env` file names, as python-dotenv reads one:
    `NAME=value` lines, `export ` allowed before the name, `#` comments
    (whole lines, or after ` #` in an unquoted value), values in matching
    single or double quotes taken as they are. A variable already set in the
    environment keeps its value: the file gives defaults, never overrides.

    @param path The file; a missing one is no error (nothing is set).
    @return How many lines of the file named a variable.
*/
inline std::size_t load_dotenv(std::filesystem::path const& path = ".env")
{
    std::ifstream in(path);
    std::string line;
    std::size_t named = 0;
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
        auto const v0 = value.find_first_not_of(" \t");
        value = v0 == std::string::npos ? "" : value.substr(v0);
        while(!value.empty() && value.back() == '\r')
            value.pop_back();
        if(value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
            value = value.substr(1, value.size() - 2);
        else
        {
            if(auto const hash = value.find(" #"); hash != std::string::npos)
                value.resize(hash);
            while(!value.empty() && (value.back() == ' ' || value.back() == '\t'))
                value.pop_back();
        }
        if(key.empty())
            continue;
        ++named;
        ::setenv(key.c_str(), value.c_str(), 0);
    }
    return named;
}

} // namespace agentio::app

#endif
