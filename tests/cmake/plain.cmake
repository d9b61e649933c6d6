# The test suite's two verbs for a plain CMake build (tests/CMakeLists.txt).
# The lists of test programs and tests (tests/<area>/tests.cmake) are
# written once, in these two verbs; tests/cmake/tribits.cmake gives the same
# verbs to a TriBITS build, so both run the same suite.
#
#   dapetra_test_program(<name> SOURCES <src>... [LIBS <lib>...] [DEFINES <def>...] [DEPENDS <target>...]
#                        [INCLUDES <dir>...])
#     a test program linked to LIBS (Dapetra::<x> targets, GTest::gtest, ...)
#   dapetra_test(<name> NP <n> COMMAND <program> [<arg>...] LABELS <label>... TIMEOUT <s>
#                [PASS_REGEX <re>] [FAIL_REGEX <re>...] [ENV <var=value>...] [RESOURCE_LOCK <name>])
#     a test: <program> (a dapetra_test_program or an executable's path) under
#     mpirun at <n> processes, or by itself when <n> is 0.
#   dapetra_gtest_program_tests(<program> LABELS <label>... TIMEOUT <s>)
#     one test per GoogleTest case of a single-process program.
find_package(GTest REQUIRED)
find_package(MPI REQUIRED COMPONENTS CXX)
include(GoogleTest)
include(${CMAKE_CURRENT_LIST_DIR}/verbs.cmake)
set(DAPETRA_TEST_NP0 ON)  # tests that start their own processes (NP 0) run here
set(DAPETRA_MPIEXEC ${MPIEXEC_EXECUTABLE} --allow-run-as-root --oversubscribe ${MPIEXEC_NUMPROC_FLAG})
# Each test gets a temporary directory of its own (TMPDIR), so the mpiruns
# that ctest -j starts together never share Open MPI's session directory:
# Open MPI 4.1 creates /tmp/ompi.<host>.<uid> unguarded, and two launches
# racing there fail one of them with "mkdir ... File exists" (seen in CI).
set(DAPETRA_TEST_TMP ${PROJECT_BINARY_DIR}/tmp)

function(dapetra_test_program name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "${DAPETRA_TEST_PROGRAM_KEYWORDS}")
  add_executable(${name} ${arg_SOURCES})
  dapetra_test_program_usage(${name} PRIVATE)
endfunction()

function(dapetra_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "${DAPETRA_TEST_ONE_VALUE_KEYWORDS}" "${DAPETRA_TEST_KEYWORDS}")
  list(POP_FRONT arg_COMMAND program)
  if(TARGET ${program})
    set(program $<TARGET_FILE:${program}>)
  endif()
  if(arg_NP GREATER 0)
    add_test(NAME ${name} COMMAND ${DAPETRA_MPIEXEC} ${arg_NP} ${program} ${arg_COMMAND})
    set_tests_properties(${name} PROPERTIES PROCESSORS ${arg_NP})
  else()
    add_test(NAME ${name} COMMAND ${program} ${arg_COMMAND})
  endif()
  # AddressSanitizer and UndefinedBehaviorSanitizer run a program 2-3 times
  # slower: a sanitized build gives each test twice its time (a hang still
  # fails; the longest MPI tests had reached 300 s of 300 beside a build).
  set(timeout ${arg_TIMEOUT})
  if(DAPETRA_SANITIZE)
    math(EXPR timeout "${timeout} * 2")
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "${arg_LABELS}" TIMEOUT ${timeout})
  if(arg_PASS_REGEX)
    set_tests_properties(${name} PROPERTIES PASS_REGULAR_EXPRESSION "${arg_PASS_REGEX}")
  endif()
  if(arg_RESOURCE_LOCK)
    set_tests_properties(${name} PROPERTIES RESOURCE_LOCK ${arg_RESOURCE_LOCK})
  endif()
  list(APPEND arg_FAIL_REGEX ${DAPETRA_TEST_ALWAYS_FAIL_REGEX})
  set_tests_properties(${name} PROPERTIES FAIL_REGULAR_EXPRESSION "${arg_FAIL_REGEX}")
  file(MAKE_DIRECTORY ${DAPETRA_TEST_TMP}/${name})
  list(APPEND arg_ENV TMPDIR=${DAPETRA_TEST_TMP}/${name})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${arg_ENV}")
endfunction()

function(dapetra_gtest_program_tests program)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TIMEOUT" "LABELS")
  gtest_discover_tests(${program} PROPERTIES LABELS "${arg_LABELS}" TIMEOUT ${arg_TIMEOUT} DISCOVERY_TIMEOUT 60)
endfunction()
