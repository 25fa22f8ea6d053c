import { useState } from 'react';
import { Alert, Card, Col, Row, Segmented, Space, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, type PoolHealthView } from '../api/client';
import { usePolling } from '../hooks';
import { OVERVIEW_WINDOWS, barHeights, latency, percent, perMinute, usePageVisible, type OverviewTop, type OverviewView } from '../overview';

/** Refresh period of the overview while the tab is visible. */
const REFRESH_MS = 5000;

function MinuteBars({ values, label, testId }: { values: { at: string; value: number }[]; label: string; testId: string }) {
  const heights = barHeights(values.map((v) => v.value));
  return (
    <div>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <div data-testid={testId} style={{ display: 'flex', alignItems: 'flex-end', gap: 2, height: 48, marginTop: 4 }}>
        {values.map((v, i) => (
          <Tooltip key={v.at} title={`${new Date(v.at).toLocaleTimeString()} · ${v.value}`}>
            <div
              role="img"
              aria-label={`${new Date(v.at).toLocaleTimeString()}: ${v.value}`}
              style={{ flex: 1, minWidth: 2, height: `${Math.max(2, heights[i] * 100)}%`, background: v.value > 0 ? '#1677ff' : '#e5e5e5' }}
            />
          </Tooltip>
        ))}
      </div>
    </div>
  );
}

export function OverviewPage() {
  const { t } = useTranslation();
  const visible = usePageVisible();
  const [span, setSpan] = useState<string>('15m');
  const period = visible ? REFRESH_MS : 0;
  const overview = usePolling(() => api<OverviewView>('GET', `/overview?window=${span}`), period, [span, visible]);
  const health = usePolling(() => api<PoolHealthView>('GET', '/health'), visible ? 15000 : 0, [visible]);
  const data = overview.data;
  const byStatus = (health.data?.by_status ?? {}) as Record<string, number>;
  const topColumns = (title: string) => [
    { title, render: (_: unknown, r: OverviewTop) => r.key ?? t('overview.none') },
    { title: t('overview.requests'), dataIndex: 'requests', align: 'right' as const },
    { title: t('overview.tokens'), dataIndex: 'tokens', align: 'right' as const },
    { title: t('overview.failures'), dataIndex: 'failures', align: 'right' as const },
  ];
  return (
    <div data-testid="overview">
      <Space style={{ marginBottom: 16 }} wrap>
        <Segmented data-testid="overview-window" value={span} options={[...OVERVIEW_WINDOWS]} onChange={(v) => setSpan(String(v))} />
        <Typography.Text type="secondary">{visible ? t('overview.refreshing', { seconds: REFRESH_MS / 1000 }) : t('overview.paused')}</Typography.Text>
      </Space>
      {overview.error && <Alert type="error" showIcon message={overview.error.message} style={{ marginBottom: 16 }} />}
      <Row gutter={[12, 12]}>
        {(
          [
            ['requestsPerMinute', perMinute(data?.requests_per_minute ?? 0), 'overview-rpm'],
            ['tokensPerMinute', perMinute(data?.tokens_per_minute ?? 0), 'overview-tpm'],
            ['requestsTotal', String(data?.requests ?? 0), 'overview-requests'],
            ['successRate', percent(data?.success_rate), 'overview-success'],
            ['failovers', String(data?.failovers ?? 0), 'overview-failovers'],
            ['p50', latency(data?.p50_latency_ms), 'overview-p50'],
            ['p95', latency(data?.p95_latency_ms), 'overview-p95'],
            ['ttft', latency(data?.mean_ttft_ms, false), 'overview-ttft'],
          ] as const
        ).map(([key, value, testId]) => (
          <Col key={key} xs={12} sm={8} md={6} xl={3}>
            <Card size="small">
              <Statistic title={t(`overview.${key}`)} value={value} valueRender={() => <span data-testid={testId}>{value}</span>} />
            </Card>
          </Col>
        ))}
      </Row>
      <Card size="small" style={{ marginTop: 12 }}>
        <Row gutter={24}>
          <Col xs={24} md={12}>
            <MinuteBars label={t('overview.requestsByMinute')} testId="overview-requests-bars" values={(data?.minutes ?? []).map((m) => ({ at: m.at, value: m.requests }))} />
          </Col>
          <Col xs={24} md={12}>
            <MinuteBars label={t('overview.tokensByMinute')} testId="overview-tokens-bars" values={(data?.minutes ?? []).map((m) => ({ at: m.at, value: m.tokens }))} />
          </Col>
        </Row>
      </Card>
      <Card size="small" title={t('overview.credentials')} style={{ marginTop: 12 }}>
        <Space wrap>
          <a href="#/credentials" data-testid="overview-credentials-total">
            <Tag>
              {t('health.credentials')}: {health.data?.credentials ?? 0}
            </Tag>
          </a>
          {['ok', 'warning', 'error', 'paused', 'revoked'].map((status) => (
            <a key={status} href="#/credentials" data-testid={`overview-status-${status}`}>
              <Tag color={status === 'ok' ? 'green' : status === 'warning' ? 'orange' : status === 'paused' ? 'default' : 'red'}>
                {t(`status.${status}`)}: {byStatus[status] ?? 0}
              </Tag>
            </a>
          ))}
          <a href="#/health">
            <Tag>
              {t('health.cooling')}: {health.data?.cooling ?? 0}
            </Tag>
          </a>
        </Space>
      </Card>
      <Row gutter={12} style={{ marginTop: 12 }}>
        <Col xs={24} lg={12}>
          <Card size="small" title={t('overview.topModels')}>
            <Table<OverviewTop> size="small" pagination={false} rowKey={(r) => r.key ?? ''} dataSource={data?.top_models ?? []} columns={topColumns(t('col.model'))} />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small" title={t('overview.topKeys')}>
            <Table<OverviewTop> size="small" pagination={false} rowKey={(r) => r.key ?? ''} dataSource={data?.top_keys ?? []} columns={topColumns(t('col.accessKey'))} />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
