# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

# agentio-portfolio init-db twice with one seed: byte-identical files; another seed: different.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
foreach(args "a.db;--seed;7" "b.db;--seed;7" "c.db;--seed;8")
    list(GET args 0 name)
    list(SUBLIST args 1 -1 rest)
    execute_process(COMMAND "${EXE}" init-db "${WORK}/${name}" --initiatives 200 ${rest}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "init-db ${name} failed (${rc}): ${out}${err}")
    endif()
    message("${out}")
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${WORK}/a.db" "${WORK}/b.db" RESULT_VARIABLE same)
if(NOT same EQUAL 0)
    message(FATAL_ERROR "same seed produced different files")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${WORK}/a.db" "${WORK}/c.db" RESULT_VARIABLE differ)
if(differ EQUAL 0)
    message(FATAL_ERROR "different seeds produced the same file")
endif()
# Bad arguments: a usage error (exit 2) with a message, no file.
execute_process(COMMAND "${EXE}" init-db "${WORK}/d.db" --initiatives cero
    RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--initiatives" OR EXISTS "${WORK}/d.db")
    message(FATAL_ERROR "bad --initiatives not rejected properly (${rc}): ${err}")
endif()
