import { useState } from 'react';
import { Button, Form, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, query, type Page } from '../api/client';
import { usePolling } from '../hooks';

/** One audit entry (GET /admin/v1/audit): who changed what, the changed fields before and after. */
export interface AuditEntry {
  id: number;
  occurred_at: string;
  subject: string;
  via: string;
  token_id?: string | null;
  method: string;
  path: string;
  resource_type: string;
  resource_id?: string | null;
  before?: unknown;
  after?: unknown;
  request_id: string;
}

export interface AuditFilters {
  subject?: string;
  resource_type?: string;
  resource_id?: string;
}

export const AUDIT_RESOURCE_TYPES = ['credentials', 'groups', 'access-keys', 'teams', 'settings', 'webhooks', 'api-tokens'];

/** The listing's query: blank filters left out, the cursor of the next (older) page. */
export function auditQuery(filters: AuditFilters, cursor?: string | null, limit = 50): string {
  return query({
    subject: filters.subject?.trim() || undefined,
    resource_type: filters.resource_type || undefined,
    resource_id: filters.resource_id?.trim() || undefined,
    limit,
    cursor: cursor ?? undefined,
  });
}

function change(value: unknown) {
  return value == null ? '—' : <Typography.Text code>{JSON.stringify(value)}</Typography.Text>;
}

/** The audit log, newest first; read-only. */
export function AuditPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<AuditFilters>({});
  const [older, setOlder] = useState<AuditEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const first = usePolling(() => api<Page<AuditEntry>>('GET', '/audit' + auditQuery(filters)), 15000, [filters]);
  const next = older.length > 0 ? cursor : first.data?.next_cursor ?? null;
  const rows = [...(first.data?.items ?? []), ...older];
  const more = async () => {
    if (!next) return;
    const page = await api<Page<AuditEntry>>('GET', '/audit' + auditQuery(filters, next));
    setOlder([...older, ...page.items]);
    setCursor(page.next_cursor ?? null);
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Form
        layout="inline"
        onFinish={(values: AuditFilters) => {
          setOlder([]);
          setCursor(null);
          setFilters(values);
        }}
      >
        <Form.Item name="subject" label={t('audit.subject')}>
          <Input allowClear data-testid="audit-subject" />
        </Form.Item>
        <Form.Item name="resource_type" label={t('audit.resource')}>
          <Select allowClear style={{ width: 160 }} options={AUDIT_RESOURCE_TYPES.map((type) => ({ value: type, label: type }))} />
        </Form.Item>
        <Form.Item name="resource_id" label="id">
          <Input allowClear />
        </Form.Item>
        <Button htmlType="submit" type="primary">
          {t('audit.filter')}
        </Button>
      </Form>
      <Table<AuditEntry>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={rows}
        loading={!first.data && !first.error}
        columns={[
          { title: t('audit.when'), dataIndex: 'occurred_at', render: (at: string) => new Date(at).toLocaleString() },
          {
            title: t('audit.who'),
            render: (_, row) => (
              <Space>
                {row.subject}
                <Tag>{row.via}</Tag>
              </Space>
            ),
          },
          { title: t('audit.action'), render: (_, row) => `${row.method} ${row.path}` },
          { title: t('audit.resource'), render: (_, row) => `${row.resource_type} ${row.resource_id ?? ''}` },
          { title: t('audit.before'), render: (_, row) => change(row.before) },
          { title: t('audit.after'), render: (_, row) => change(row.after) },
          { title: 'request id', dataIndex: 'request_id' },
        ]}
      />
      {next && (
        <Button onClick={more} data-testid="audit-more">
          {t('audit.more')}
        </Button>
      )}
    </Space>
  );
}
