# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

# Installs agentio into a scratch prefix and builds a separate project against
# it with find_package(agentio CONFIG REQUIRED), then runs what it built.
file(REMOVE_RECURSE "${WORK}")
function(run)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0)
        string(REPLACE ";" " " cmd "${ARGN}")
        message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}")
    endif()
    message("${out}")
endfunction()
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK}/prefix")
run(${CMAKE_COMMAND} -S "${DOWNSTREAM}" -B "${WORK}/build" -G Ninja
    "-DCMAKE_PREFIX_PATH=${WORK}/prefix" "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
run(${CMAKE_COMMAND} --build "${WORK}/build")
run("${WORK}/build/downstream_app")
run("${WORK}/build/downstream_app_header_only")

# A component agentio does not have is refused by name.
file(MAKE_DIRECTORY "${WORK}/bogus")
file(WRITE "${WORK}/bogus/CMakeLists.txt"
    "cmake_minimum_required(VERSION 3.25)\nproject(bogus LANGUAGES CXX)\nfind_package(agentio CONFIG REQUIRED COMPONENTS core nosuch)\n")
execute_process(COMMAND ${CMAKE_COMMAND} -S "${WORK}/bogus" -B "${WORK}/bogus/build" -G Ninja
    "-DCMAKE_PREFIX_PATH=${WORK}/prefix" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0 OR NOT out MATCHES "agentio has no component 'nosuch'")
    message(FATAL_ERROR "an unknown component was not refused by name:\n${out}")
endif()
