// SPDX-License-Identifier: MIT
#pragma once

#include "core/hlo/hlomodule.h"

#include <string>
#include <string_view>

namespace flint::core::hlo {

/// Parses XLA HLO text as XLA prints it (`HloModule` line, computations, `ENTRY`, instructions),
/// before and after optimisation, from the current printer back to the 2022 one (operands with or
/// without shapes, names with or without '%', quoted or bare backend_config, /*index=N*/ comments).
/// `file` names the source in errors. Throws InputError with the line and the column and what was
/// expected; unknown opcodes are kept (the lowering reports them), unknown attributes kept raw.
Module parseHlo(std::string_view text, const std::string& file);

/// Reads and parses an HLO text file. Throws InputError.
Module readHloFile(const std::string& path);

/// True when `text` looks like HLO text (its first token is `HloModule`).
bool looksLikeHlo(std::string_view text);

/// Parses replica groups in explicit (`{{0,1},{2,3}}`, `{}`) or iota (`[2,4]<=[8]`,
/// `[4,2]<=[2,4]T(1,0)`) form. Throws std::invalid_argument with the reason.
std::vector<std::vector<std::int64_t>> parseReplicaGroups(std::string_view text);

} // namespace flint::core::hlo
