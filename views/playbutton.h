// SPDX-License-Identifier: MIT
#pragma once

class QTimer;
class QToolButton;
class QWidget;

namespace flint::views {

/// The play/pause button of the teaching dialogs (collective animation, pipeline schedule): a
/// checkable tool button showing "play" while stopped.
QToolButton* makePlayButton(QWidget* parent);

/// Starts or stops `timer` and shows the state on `play` (checked, icon and tooltip), without
/// emitting its toggled signal.
void showPlaying(QToolButton* play, QTimer& timer, bool playing);

} // namespace flint::views
