// SPDX-License-Identifier: MIT
#include "app/explorer/detailspanel.h"

#include "app/explorer/stepsummary.h"
#include "core/estimator/opexplain.h"
#include "views/jobrunner.h"
#include "views/timelinegeometry.h"
#include "views/viewpalette.h"

#include <QLabel>
#include <QLocale>
#include <QPointer>
#include <QStringList>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace flint::app {
namespace {

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

DetailsPanel::DetailsPanel(views::JobRunner& jobs, QWidget* parent)
    : QWidget(parent)
    , m_jobs(jobs)
{
    auto* layout = new QVBoxLayout(this);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_details = new QTextBrowser(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_details, 1);
}

QString DetailsPanel::html() const
{
    return m_details->toHtml();
}

QString DetailsPanel::summary() const
{
    return m_summary->text();
}

void DetailsPanel::showWorkload(const core::LoadedWorkload& workload, const core::model::CompiledModel* compiled)
{
    m_jobs.cancel(views::JobRunner::Kind::Inspect); // an explanation of the previous workload's op
    m_details->setHtml(StepSummary::workloadHtml(workload, compiled));
}

void DetailsPanel::showEstimate(const engine::Evaluation& evaluation)
{
    m_summary->setText(StepSummary::summaryHtml(evaluation));
    setSummaryStale(false);
}

void DetailsPanel::setSummaryStale(bool stale)
{
    views::showStale(m_summary, stale, tr("The previous estimate: the current configuration is being estimated"));
}

bool DetailsPanel::summaryStale() const
{
    return !m_summary->isEnabled();
}

void DetailsPanel::showExplanation(const QString& html, bool hasFlows, int cellCount)
{
    m_details->setHtml(
        html + (hasFlows ? tr("Its transfers are outlined in the Communication tab (%n cell(s)).", nullptr, cellCount)
                         : QString()));
}

void DetailsPanel::explainOp(std::shared_ptr<const core::LoadedWorkload> workload,
                             std::shared_ptr<const engine::Evaluation> evaluation, const core::Cluster& cluster,
                             int rank, int op)
{
    QPointer<DetailsPanel> self(this);
    m_jobs.start(
        views::JobRunner::Kind::Inspect, QString(),
        [self, workload = std::move(workload), evaluation = std::move(evaluation), cluster, rank,
         op](const core::JobControl&) -> std::function<void()> {
            const core::Workload& w = workload->workload;
            const auto r = static_cast<std::size_t>(rank);
            const auto index = static_cast<std::uint32_t>(op);
            const core::Op& o = w.programOf(r).ops[index];
            // Times, flows and the formula of the estimate on screen, on the cluster it ran on.
            const bool estimated = evaluation && evaluation->workload == workload && evaluation->result;
            const core::Cluster& on = estimated ? evaluation->scenario.cluster : cluster;
            Flows flows;
            core::forEachOpFlow(w, on, r, index,
                                [&flows](std::int32_t src, std::int32_t dst, double) { flows.emplace_back(src, dst); });
            QString html =
                tr("<b>%1</b> (%2) on rank %3<br>").arg(qs(o.name).toHtmlEscaped(), views::kindLabel(o)).arg(rank);
            if (!o.scope.empty())
                html += tr("scope <i>%1</i><br>").arg(qs(o.scope).toHtmlEscaped());
            if (o.dtype != core::DType::Unknown) {
                QStringList dims;
                for (auto d : o.shape)
                    dims << QString::number(d);
                const auto type = core::displayName(o.dtype);
                html += tr("result %1[%2]<br>")
                            .arg(QString::fromUtf8(type.data(), static_cast<qsizetype>(type.size())),
                                 dims.join(QLatin1Char(',')));
            }
            html += tr("%1 FLOP, %2 read, %3 written<br>")
                        .arg(QLocale().toString(static_cast<double>(o.flops), 'g', 4),
                             qs(views::formatBytes(static_cast<double>(o.bytesRead))),
                             qs(views::formatBytes(static_cast<double>(o.bytesWritten))));
            if (o.kind == core::OpKind::Collective) {
                QStringList members;
                for (std::int32_t m : w.membersOf(r, o))
                    members << QString::number(m);
                html += tr("%1 per rank, group of %2: %3<br>")
                            .arg(qs(views::formatBytes(static_cast<double>(o.commBytes))))
                            .arg(members.size())
                            .arg(members.size() > 32 ? members.mid(0, 32).join(QLatin1Char(',')) + QStringLiteral("…")
                                                     : members.join(QLatin1Char(',')));
                html += tr("<i>View > Animate selected collective (Ctrl+Shift+A) plays it step by step.</i><br>");
            }
            double ran = -1; // how long it took in the estimate
            if (estimated) {
                for (const core::OpEvent& ev : evaluation->result->eventsOf(r)) {
                    if (ev.op != index)
                        continue;
                    ran = ev.end - ev.start;
                    html += tr("runs %1 → %2 (%3)%4<br>")
                                .arg(StepSummary::duration(ev.start), StepSummary::duration(ev.end),
                                     StepSummary::duration(ev.end - ev.start),
                                     ev.start > ev.ready ? tr(", after waiting %1 for its peers")
                                                               .arg(StepSummary::duration(ev.start - ev.ready))
                                                         : QString());
                }
            }
            try {
                const core::OpExplanation why = core::explainOp(w, on, r, index);
                html += tr("<br><b>Estimated time %1</b>, how:").arg(StepSummary::duration(why.seconds));
                html += QStringLiteral("<pre style='white-space:pre-wrap'>");
                for (const core::Message& line : why.lines)
                    html += StepSummary::translated(line).toHtmlEscaped() + QLatin1Char('\n');
                html += QStringLiteral("</pre>");
                // The formula prices the op alone; the run above includes what ran beside it (the
                // slowdown of compute beside communication, links shared by overlapping transfers).
                if (ran > why.seconds * 1.005 && ran - why.seconds > 1e-9)
                    html += tr("In this estimate it took %1: %2 more than alone, from what ran beside it (the "
                               "last line above).<br>")
                                .arg(StepSummary::duration(ran), StepSummary::duration(ran - why.seconds));
            } catch (const std::exception& e) {
                html += tr("<br>No estimate for this op: %1").arg(qs(e.what()).toHtmlEscaped());
            }
            return [self, rank, op, flows = std::move(flows), html] {
                if (self)
                    Q_EMIT self->explained(rank, op, flows, html);
            };
        });
}

void DetailsPanel::findHeaviestOp(std::shared_ptr<const engine::Evaluation> evaluation, int srcFirst, int srcCount,
                                  int dstFirst, int dstCount)
{
    QPointer<DetailsPanel> self(this);
    m_jobs.start(
        views::JobRunner::Kind::Inspect, QString(),
        [self, evaluation = std::move(evaluation), srcFirst, srcCount, dstFirst,
         dstCount](const core::JobControl&) -> std::function<void()> {
            const core::OpOnRank found = core::heaviestOpBetween(
                evaluation->workload->workload, evaluation->scenario.cluster, srcFirst, srcCount, dstFirst, dstCount);
            return [self, found, dstFirst, dstCount] {
                if (self)
                    Q_EMIT self->opFound(found.rank, static_cast<int>(found.op), found.bytes, dstFirst, dstCount);
            };
        });
}

} // namespace flint::app
