# The core's tests (single process): label `unit`.
find_package(nlohmann_json 3.9 REQUIRED)
dapetra_test_program(test_core
  SOURCES core/test_dim_math.cpp core/test_axis.cpp core/test_validate.cpp core/test_json.cpp core/test_spec_examples.cpp
          core/test_properties.cpp core/test_distarray.cpp core/test_inspect_tool.cpp core/test_index_fingerprint.cpp
          core/test_leading_run.cpp
  LIBS Dapetra::core GTest::gtest_main nlohmann_json::nlohmann_json
  INCLUDES ${DAPETRA_CORE_INTERNAL_DIR}  # test_index_fingerprint and test_leading_run test internal index math
  DEFINES DAPETRA_SPEC_DATA="${DAPETRA_TESTS_DIR}/data/spec_chapter2.json"
          DAPETRA_LAYOUT_DIR="${DAPETRA_ROOT}/examples/layouts"
          DAPETRA_INSPECT_EXE="$<TARGET_FILE:dapetra-inspect>"
  DEPENDS dapetra-inspect)
dapetra_gtest_program_tests(test_core LABELS unit TIMEOUT 120)
