// SPDX-License-Identifier: MIT
#include "views/playeddialog.h"

#include "views/playbutton.h"

#include <algorithm>

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>

namespace flint::views {
namespace {

/// Slider positions over the step.
constexpr int kSliderSteps = 1000;
/// Frames to play the whole step in (at 40 ms a frame: 8 s).
constexpr int kFrames = 200;

} // namespace

PlayedDialog::PlayedDialog(const QString& textName, QWidget* parent)
    : QDialog(parent)
{
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setObjectName(textName);
    m_play = makePlayButton(this);
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName(QStringLiteral("timeSlider"));
    m_slider->setRange(0, kSliderSteps);
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_play);
    controls->addWidget(m_slider, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_text);
    layout->addLayout(controls);

    m_timer.setInterval(40);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        const int next = m_slider->value() + kSliderSteps / kFrames;
        m_slider->setValue(std::min(next, kSliderSteps));
        if (next >= kSliderSteps)
            setPlaying(false);
    });
    connect(m_play, &QToolButton::toggled, this, &PlayedDialog::setPlaying);
    connect(m_slider, &QSlider::valueChanged, this,
            [this](int value) { showPosition(static_cast<double>(value) / kSliderSteps); });
}

void PlayedDialog::setView(QWidget* view)
{
    static_cast<QVBoxLayout*>(layout())->insertWidget(1, view, 1);
}

QString PlayedDialog::text() const
{
    return m_text->text();
}

void PlayedDialog::setText(const QString& text)
{
    m_text->setText(text);
    m_text->setMinimumHeight(m_text->heightForWidth(std::max(600, width() - 24)));
}

int PlayedDialog::textHeight() const
{
    return m_text->minimumHeight();
}

void PlayedDialog::setPosition(double fraction)
{
    setPlaying(false);
    const QSignalBlocker blocker(m_slider);
    m_slider->setValue(static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * kSliderSteps)));
    showPosition(std::clamp(fraction, 0.0, 1.0));
}

void PlayedDialog::setPlaying(bool playing)
{
    if (playing && m_slider->value() >= kSliderSteps)
        m_slider->setValue(0); // from the start again
    showPlaying(m_play, m_timer, playing);
}

} // namespace flint::views
