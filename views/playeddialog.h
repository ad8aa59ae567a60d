// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QTimer>

class QLabel;
class QSlider;
class QToolButton;

namespace flint::views {

/// A teaching dialog played along its own time axis (the pipeline schedule, the network's
/// utilisation): a text above, a view, and under them a play button and a slider from the start to
/// the end. Playing moves the slider across in 8 s; every move shows the new position
/// (showPosition).
class PlayedDialog : public QDialog {
    Q_OBJECT

public:
    /// Lays out the dialog's words (a label named `textName`, for tests) and under them the controls;
    /// the view goes between them (setView).
    explicit PlayedDialog(const QString& textName, QWidget* parent = nullptr);

    QString text() const;

public Q_SLOTS:
    void setPlaying(bool playing);

protected:
    /// Puts `view` between the words and the controls, taking the room the dialog has.
    void setView(QWidget* view);
    /// Sets the words above the view, the whole of them shown (a word-wrapped label's minimum height
    /// does not follow its width).
    void setText(const QString& text);
    /// The height the words take.
    int textHeight() const;
    /// Moves the slider to `fraction` of the way (0 start, 1 end) and shows it, stopping play.
    void setPosition(double fraction);
    /// Shows the time `fraction` of the way through (0 to 1).
    virtual void showPosition(double fraction) = 0;

private:
    QLabel* m_text = nullptr;
    QSlider* m_slider = nullptr;
    QToolButton* m_play = nullptr;
    QTimer m_timer;
};

} // namespace flint::views
