// SPDX-License-Identifier: MIT
#pragma once

#include <QComboBox>

namespace flint::views {

/// A combo box that, when narrower than its current entry, shows the entry cut with an ellipsis
/// ("H100 — NVIDIA H100 SXM5…") rather than clipped mid-letter; the list shows entries whole.
class ElidingComboBox : public QComboBox {
    Q_OBJECT
public:
    using QComboBox::QComboBox;

protected:
    void paintEvent(QPaintEvent* event) override;
};

} // namespace flint::views
