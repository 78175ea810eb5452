# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

# agentioDependencies.cmake
#
# Finds what agentio's headers need and fails early, naming the Debian 12 package
# that provides whatever is missing. Used by our own build and, installed, by
# agentioConfig.cmake, so a downstream project gets the same checks and messages.

include_guard(GLOBAL)

set(_agentio_boost_version 1.81)

function(_agentio_missing what package)
    message(FATAL_ERROR
        "agentio: ${what} not found.\n"
        "On Debian 12 install it with:\n"
        "    apt-get install ${package}\n"
        "(or run scripts/setup.sh as root, which installs everything agentio needs).")
endfunction()

# The components (CMake targets agentio::<name>) and what each builds on; a
# component needs its own packages and those of the components below it.
set(_agentio_components core http chat_completions ag_ui a2a mcp mcp_client sqlite retrieval postgres threads testing app sandbox tools log)
set(_agentio_builds_on_core "")
set(_agentio_builds_on_http core)
set(_agentio_builds_on_chat_completions http)
set(_agentio_builds_on_ag_ui chat_completions)
set(_agentio_builds_on_a2a ag_ui)
set(_agentio_builds_on_mcp http)
set(_agentio_builds_on_mcp_client http)
set(_agentio_builds_on_sqlite core)
set(_agentio_builds_on_retrieval sqlite postgres sandbox)
set(_agentio_builds_on_postgres core)
set(_agentio_builds_on_testing http)
set(_agentio_builds_on_app http)
set(_agentio_builds_on_threads sqlite postgres)
set(_agentio_builds_on_sandbox core)
set(_agentio_builds_on_tools http)
set(_agentio_builds_on_log core)

# Debian 12's default libboost-all-dev is 1.74, which has neither Boost.JSON nor
# Boost.Describe: ask for the 1.81 config package explicitly and say so if absent.
macro(_agentio_find_boost)
    find_package(Boost ${_agentio_boost_version} CONFIG QUIET COMPONENTS ${ARGN})
    if(NOT Boost_FOUND)
        _agentio_missing("Boost >= ${_agentio_boost_version} with ${ARGN} (found: '${Boost_VERSION}')"
            "libboost1.81-all-dev libboost-json1.81-dev libboost-url1.81-dev")
    endif()
endmacro()

# agentio_find_dependencies(<component>...): finds what the components need.
macro(agentio_find_dependencies)
    set(_agentio_todo ${ARGN})
    set(_agentio_needed "")
    while(_agentio_todo)
        list(POP_FRONT _agentio_todo _agentio_c)
        if(NOT _agentio_c IN_LIST _agentio_needed)
            list(APPEND _agentio_needed ${_agentio_c})
            list(APPEND _agentio_todo ${_agentio_builds_on_${_agentio_c}})
        endif()
    endwhile()

    # core: tools, the neutral conversation and codecs, the orchestrator, SSE — Boost alone.
    _agentio_find_boost(json)
    if(NOT EXISTS "${Boost_INCLUDE_DIRS}/boost/describe.hpp")
        _agentio_missing("Boost.Describe (boost/describe.hpp)" "libboost1.81-all-dev")
    endif()
    find_package(Threads REQUIRED)

    if("http" IN_LIST _agentio_needed)
        _agentio_find_boost(json url)
        find_package(OpenSSL QUIET)
        if(NOT OpenSSL_FOUND)
            _agentio_missing("OpenSSL" "libssl-dev")
        endif()
    endif()

    if("sqlite" IN_LIST _agentio_needed)
        find_package(SQLite3 QUIET)
        if(NOT SQLite3_FOUND)
            _agentio_missing("SQLite3" "libsqlite3-dev")
        endif()
    endif()

    # retrieval: Snowball stemmers (libstemmer), as an imported target.
    if("retrieval" IN_LIST _agentio_needed AND NOT TARGET agentio_libstemmer)
        find_path(AGENTIO_LIBSTEMMER_INCLUDE_DIR libstemmer.h)
        find_library(AGENTIO_LIBSTEMMER_LIBRARY stemmer)
        if(NOT AGENTIO_LIBSTEMMER_INCLUDE_DIR OR NOT AGENTIO_LIBSTEMMER_LIBRARY)
            _agentio_missing("libstemmer (Snowball stemmers)" "libstemmer-dev")
        endif()
        add_library(agentio_libstemmer UNKNOWN IMPORTED)
        set_target_properties(agentio_libstemmer PROPERTIES
            IMPORTED_LOCATION "${AGENTIO_LIBSTEMMER_LIBRARY}"
            INTERFACE_INCLUDE_DIRECTORIES "${AGENTIO_LIBSTEMMER_INCLUDE_DIR}")
    endif()

    # sandbox: libseccomp builds the filter; bubblewrap runs it (found at run time, not here).
    if("sandbox" IN_LIST _agentio_needed AND NOT TARGET agentio_libseccomp)
        find_path(AGENTIO_LIBSECCOMP_INCLUDE_DIR seccomp.h)
        find_library(AGENTIO_LIBSECCOMP_LIBRARY seccomp)
        if(NOT AGENTIO_LIBSECCOMP_INCLUDE_DIR OR NOT AGENTIO_LIBSECCOMP_LIBRARY)
            _agentio_missing("libseccomp (seccomp.h, libseccomp.so)" "libseccomp-dev")
        endif()
        add_library(agentio_libseccomp UNKNOWN IMPORTED)
        set_target_properties(agentio_libseccomp PROPERTIES
            IMPORTED_LOCATION "${AGENTIO_LIBSECCOMP_LIBRARY}"
            INTERFACE_INCLUDE_DIRECTORIES "${AGENTIO_LIBSECCOMP_INCLUDE_DIR}")
    endif()

    # tools: gumbo reads DuckDuckGo's HTML results page (web_search's keyless fallback).
    if("tools" IN_LIST _agentio_needed AND NOT TARGET agentio_gumbo)
        find_path(AGENTIO_GUMBO_INCLUDE_DIR gumbo.h)
        find_library(AGENTIO_GUMBO_LIBRARY gumbo)
        if(NOT AGENTIO_GUMBO_INCLUDE_DIR OR NOT AGENTIO_GUMBO_LIBRARY)
            _agentio_missing("gumbo (gumbo.h, libgumbo.so: an HTML5 parser)" "libgumbo-dev")
        endif()
        add_library(agentio_gumbo UNKNOWN IMPORTED)
        set_target_properties(agentio_gumbo PROPERTIES
            IMPORTED_LOCATION "${AGENTIO_GUMBO_LIBRARY}"
            INTERFACE_INCLUDE_DIRECTORIES "${AGENTIO_GUMBO_INCLUDE_DIR}")
    endif()

    # log: spdlog writes the lines (from its own thread, off the network threads).
    if("log" IN_LIST _agentio_needed AND NOT TARGET spdlog::spdlog)
        find_package(spdlog CONFIG QUIET)
        if(NOT spdlog_FOUND)
            _agentio_missing("spdlog (a logging library)" "libspdlog-dev")
        endif()
    endif()

    # postgres: the client library only (FindPostgreSQL asks for server headers
    # only with its Server component).
    if("postgres" IN_LIST _agentio_needed)
        find_package(PostgreSQL QUIET)
        if(NOT PostgreSQL_FOUND)
            _agentio_missing("libpq (PostgreSQL client library)" "libpq-dev")
        endif()
    endif()
endmacro()
