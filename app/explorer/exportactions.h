// SPDX-License-Identifier: MIT
#pragma once

#include <QImage>
#include <QObject>
#include <QString>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace flint::views {
class DagView;
}

namespace flint::app {

class Session;

/// The explorer's exports: the Perfetto trace, the Chakra traces, the per-rank breakdown as CSV
/// and the current view as an image. Every file goes through core::OutputTransaction (whole or not
/// at all); the trace and the CSV are built and written on the session's views::JobRunner.
class ExportActions : public QObject {
    Q_OBJECT

public:
    ExportActions(Session& session, QWidget* window);

    /// Asks for a file, then writes the current estimate as a Perfetto trace (at most 256 ranks).
    void exportTrace();
    /// Asks for a prefix, then writes the current workload as Chakra traces.
    void exportChakra();
    /// Asks for a file, then writes the current estimate's per-rank breakdown as CSV.
    void exportBreakdownCsv();
    /// Asks for a file, then writes the configurations tried (History::csv) as CSV.
    void exportHistoryCsv(const QString& csv);
    /// Writes `csv` to `path` whole or not at all; returns false (and reports) when it could not.
    bool writeCsv(const QString& path, const QString& csv);
    /// Asks for a file, then writes `page` (the graph: all of it) as PNG or SVG.
    void exportView(QWidget* page, views::DagView* graph, const QString& title);
    /// Writes `page` (or the whole graph, when `page` holds `graph`) as PNG, or SVG by the suffix of
    /// `path`. Returns false (and reports) when it could not be written.
    bool writeView(QWidget* page, views::DagView* graph, const QString& title, const QString& path);
    /// `image` with a palette of its `colours` most frequent colours, each pixel the nearest of them
    /// (no dithering): a screenshot is flat colours and anti-aliased edges, and as an indexed PNG it
    /// takes less than half the bytes with no visible change (the pictures in docs/screenshots/). An
    /// image with no more colours than that keeps them exactly.
    static QImage withPalette(const QImage& image, int colours = 256);

Q_SIGNALS:
    /// A file was written: what to tell the user.
    void written(const QString& message);
    void failed(const QString& summary, const QString& details);

private:
    Session& m_session;
    QWidget* m_window;
};

} // namespace flint::app
