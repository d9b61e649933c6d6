# The test suite's verbs (see plain.cmake) in a TriBITS build, read by
# dapetra_tribits_tests() in each subpackage: programs through
# tribits_add_executable, tests through tribits_add_test under TriBITS' MPI
# launcher with NUM_MPI_PROCS (TriBITS names them
# <Subpackage>_<name>_MPI_<n>, and leaves out those above
# MPI_EXEC_MAX_NUMPROCS). The lists read here start no process of their own
# (NP 0), which TriBITS' launcher could not run as they are.
find_package(GTest REQUIRED)
include(${CMAKE_CURRENT_LIST_DIR}/mpi_tests.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/verbs.cmake)
set(DAPETRA_TEST_NP0 OFF)  # (the lists leave their NP 0 tests out here)
get_filename_component(DAPETRA_TESTS_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

function(dapetra_test_program name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "${DAPETRA_TEST_PROGRAM_KEYWORDS}")
  list(TRANSFORM arg_SOURCES PREPEND ${DAPETRA_TESTS_DIR}/)
  tribits_add_executable(${name} NOEXEPREFIX NOEXESUFFIX SOURCES ${arg_SOURCES} ADDED_EXE_TARGET_NAME_OUT target)
  # TriBITS compiles with the MPI wrappers, whose include paths are not
  # system ones: leave out MPI's C++ bindings (unused, and not warning-clean).
  list(APPEND arg_DEFINES OMPI_SKIP_MPICXX MPICH_SKIP_MPICXX)
  dapetra_test_program_usage(${target} PUBLIC)
endfunction()

function(dapetra_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "${DAPETRA_TEST_ONE_VALUE_KEYWORDS}" "${DAPETRA_TEST_KEYWORDS}")
  if(NOT arg_NP GREATER 0)
    message(FATAL_ERROR "dapetra_test(${name}): a test that starts its own processes (NP 0) is not registered under TriBITS")
  endif()
  list(POP_FRONT arg_COMMAND program)
  string(JOIN " " args ${arg_COMMAND})  # TriBITS: one ARGS string per run
  set(options)
  if(arg_PASS_REGEX)
    list(APPEND options PASS_REGULAR_EXPRESSION "${arg_PASS_REGEX}")
  endif()
  list(APPEND options FAIL_REGULAR_EXPRESSION ${arg_FAIL_REGEX} ${DAPETRA_TEST_ALWAYS_FAIL_REGEX})
  if(arg_ENV)
    list(APPEND options ENVIRONMENT ${arg_ENV})
  endif()
  tribits_add_test(${program} NOEXEPREFIX NOEXESUFFIX NAME ${name} NUM_MPI_PROCS ${arg_NP} ARGS "${args}"
                   TIMEOUT ${arg_TIMEOUT} ${options} ADDED_TESTS_NAMES_OUT added)
  if(added)
    set_property(TEST ${added} APPEND PROPERTY LABELS ${arg_LABELS})
    if(arg_RESOURCE_LOCK)
      set_property(TEST ${added} PROPERTY RESOURCE_LOCK ${arg_RESOURCE_LOCK})
    endif()
  endif()
endfunction()

# TriBITS has no GoogleTest discovery: the whole program is one test, with
# the per-case timeout times ten.
function(dapetra_gtest_program_tests program)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TIMEOUT" "LABELS")
  math(EXPR timeout "${arg_TIMEOUT} * 10")
  dapetra_test(${program} NP 1 COMMAND ${program} LABELS ${arg_LABELS} TIMEOUT ${timeout})
endfunction()
