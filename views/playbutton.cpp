// SPDX-License-Identifier: MIT
#include "views/playbutton.h"

#include <QCoreApplication>
#include <QSignalBlocker>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

namespace flint::views {

QToolButton* makePlayButton(QWidget* parent)
{
    auto* play = new QToolButton(parent);
    play->setObjectName(QStringLiteral("play"));
    play->setCheckable(true);
    play->setIcon(play->style()->standardIcon(QStyle::SP_MediaPlay));
    play->setToolTip(QCoreApplication::translate("flint::views::PlayButton", "Play"));
    return play;
}

void showPlaying(QToolButton* play, QTimer& timer, bool playing)
{
    if (playing)
        timer.start();
    else
        timer.stop();
    if (play->isChecked() != playing) {
        const QSignalBlocker blocker(play);
        play->setChecked(playing);
    }
    play->setIcon(play->style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    play->setToolTip(playing ? QCoreApplication::translate("flint::views::PlayButton", "Pause")
                             : QCoreApplication::translate("flint::views::PlayButton", "Play"));
}

} // namespace flint::views
