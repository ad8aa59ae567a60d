# SPDX-License-Identifier: MIT
# Layers as include roots (docs/architecture.md, "Layers"). A library target sees only the source
# folders of its own layer and of the layers below it: its include root is a folder of symbolic
# links to exactly those folders, so that `#include "views/..."` in core, or `#include
# "engine/..."` in views, fails to compile instead of waiting for a review. The app and the tests
# are the top layer and see the whole tree.
function(flint_layer_includes target)
  set(root "${PROJECT_BINARY_DIR}/include-roots/${target}")
  file(MAKE_DIRECTORY "${root}")
  foreach(folder IN LISTS ARGN)
    if(NOT IS_SYMLINK "${root}/${folder}")
      file(CREATE_LINK "${PROJECT_SOURCE_DIR}/${folder}" "${root}/${folder}" SYMBOLIC)
    endif()
  endforeach()
  target_include_directories(${target} PUBLIC "${root}")
endfunction()
