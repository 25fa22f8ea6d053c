import { Card, Space, Statistic, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, type CredentialHealthView, type PoolHealthView } from '../api/client';
import { usePolling } from '../hooks';
import { StatusCell } from './Credentials';

export function HealthPage() {
  const { t } = useTranslation();
  const health = usePolling(() => api<PoolHealthView>('GET', '/health'));
  const data = health.data;
  const byStatus = (data?.by_status ?? {}) as Record<string, number>;
  return (
    <>
      <Space wrap size={12} style={{ marginBottom: 16 }}>
        {[
          [t('health.credentials'), data?.credentials ?? 0],
          ...['ok', 'warning', 'error', 'paused', 'revoked'].map((status) => [t(`status.${status}`), byStatus[status] ?? 0]),
          [t('health.cooling'), data?.cooling ?? 0],
          [t('health.failing'), data?.failing ?? 0],
          [t('health.withUnavailable'), data?.with_unavailable_models ?? 0],
          [t('health.disabled'), data?.disabled ?? 0],
        ].map(([title, value]) => (
          <Card key={String(title)} size="small" style={{ width: 150 }}>
            <Statistic title={title} value={value as number} />
          </Card>
        ))}
      </Space>
      <Table<CredentialHealthView>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={data?.items ?? []}
        columns={[
          { title: t('col.name'), dataIndex: 'name' },
          { title: t('col.platform'), dataIndex: 'platform' },
          { title: t('col.enabled'), render: (_, item) => (item.enabled ? t('yes') : t('no')) },
          { title: t('col.status'), render: (_, item) => <StatusCell health={item} receivedAt={health.receivedAt} /> },
          { title: t('lastFailureKind'), dataIndex: 'last_failure_kind' },
        ]}
      />
      {data && (
        <Typography.Text type="secondary">
          {t('health.generated')}: {new Date(data.generated_at).toLocaleString()} · {t('updatedLive')}
        </Typography.Text>
      )}
    </>
  );
}
