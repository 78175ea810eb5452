# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

# Configuring without a dependency fails at once, naming the Debian package.
foreach(case "Boost;libboost1.81-all-dev libboost-json1.81-dev libboost-url1.81-dev"
             "SQLite3;libsqlite3-dev" "OpenSSL;libssl-dev"
             "PostgreSQL;libpq-dev")
    list(GET case 0 package)
    list(GET case 1 debian)
    set(dir "${WORK}/${package}")
    file(REMOVE_RECURSE "${dir}")
    execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${dir}" -G Ninja
            -DAGENTIO_BUILD_TESTS=OFF -DAGENTIO_BUILD_SERVER=OFF -DCMAKE_DISABLE_FIND_PACKAGE_${package}=ON
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(rc EQUAL 0)
        message(FATAL_ERROR "configuring without ${package} succeeded")
    endif()
    string(FIND "${err}" "apt-get install ${debian}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "no install hint for ${package}:\n${err}")
    endif()
    message("without ${package}: fails with 'apt-get install ${debian}'")
endforeach()
file(REMOVE_RECURSE "${WORK}")
