# Warnings for Dapetra's own targets (not passed on to users of the package).
# DAPETRA_WARNINGS_AS_ERRORS makes them errors (CI's Trilinos 17 stack, whose
# 32-bit global ordinal is where a narrowing would first show).
option(DAPETRA_WARNINGS_AS_ERRORS "Make the warnings of Dapetra's own targets errors" OFF)
function(dapetra_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
    $<$<AND:$<BOOL:${DAPETRA_WARNINGS_AS_ERRORS}>,$<CXX_COMPILER_ID:GNU,Clang>>:-Werror>)
endfunction()

if(DAPETRA_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# ThreadSanitizer, for the threaded tests of the communication layer
# (scripts/test --tsan builds only those).
if(DAPETRA_TSAN)
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()
