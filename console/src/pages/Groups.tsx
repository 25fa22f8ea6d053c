import { useState } from 'react';
import { Alert, Button, Form, Input, InputNumber, Modal, Popconfirm, Radio, Select, Space, Switch, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, api, type CredentialView, type GroupView } from '../api/client';
import { usePolling } from '../hooks';
import { showFieldErrors } from './CredentialDrawer';
import { useMay } from '../access';

const BRIDGING = ['native_first', 'any', 'native_only'];

export function GroupsPage() {
  const { t } = useTranslation();
  const groups = usePolling(() => api<GroupView[]>('GET', '/groups'), 5000);
  const credentials = usePolling(() => api<CredentialView[]>('GET', '/credentials'), 15000);
  const names = new Map((credentials.data ?? []).map((c) => [c.id, c.name]));
  const [editing, setEditing] = useState<GroupView | null | undefined>(undefined);
  const may = useMay();
  const canCreate = may('POST', '/groups');
  const canEdit = may('PATCH', '/groups/{id}');
  const canDelete = may('DELETE', '/groups/{id}');
  const canSave = editing ? canEdit : canCreate;
  const [form] = Form.useForm();
  const [error, setError] = useState<string | null>(null);
  const weightMode = Form.useWatch('weight_mode', form);
  // how credentials of another protocol serve the group's requests (protocol bridges)
  const bridgingLabel = (value: string | undefined) =>
    value === 'any' ? t('group.bridgingAny') : value === 'native_only' ? t('group.bridgingNativeOnly') : t('group.bridgingNativeFirst');

  const open = (group: GroupView | null) => {
    setError(null);
    form.resetFields();
    form.setFieldsValue(
      group
        ? { ...group }
        : { enabled: true, weight_mode: 'auto', weight: 100, exposed_models: [], affinity_enabled: false, bridging: 'native_first', credential_ids: [] },
    );
    setEditing(group);
  };

  const save = async () => {
    const values = await form.validateFields();
    const body: Record<string, unknown> = {
      name: values.name,
      enabled: values.enabled,
      weight_mode: values.weight_mode,
      exposed_models: values.exposed_models ?? [],
      affinity_enabled: values.affinity_enabled,
      bridging: values.bridging,
      credential_ids: values.credential_ids ?? [],
    };
    if (values.weight_mode === 'manual') body.weight = values.weight;
    if (!editing && values.id) body.id = values.id;
    try {
      if (editing) await api('PATCH', `/groups/${encodeURIComponent(editing.id)}`, body);
      else await api('POST', '/groups', body);
      setEditing(undefined);
      void groups.reload();
    } catch (e) {
      showFieldErrors(form, e);
      setError(e instanceof ApiError ? `${e.code}: ${e.message}` : String(e));
    }
  };

  return (
    <>
      {canCreate && (
        <Button type="primary" style={{ marginBottom: 16 }} onClick={() => open(null)} data-testid="group-create">
          {t('create')}
        </Button>
      )}
      <Table<GroupView>
        rowKey="id"
        dataSource={groups.data ?? []}
        loading={groups.data === undefined}
        pagination={false}
        columns={[
          { title: t('col.name'), render: (_, g) => <a onClick={() => open(g)}>{g.name}</a> },
          { title: t('col.enabled'), render: (_, g) => (g.enabled ? t('yes') : t('no')) },
          {
            title: t('col.weight'),
            render: (_, g) => `${g.weight_mode === 'auto' ? t('weightAuto') : t('weightManual')} · ${t('group.effectiveWeight')} ${g.effective_weight}`,
          },
          { title: t('col.exposedModels'), render: (_, g) => (g.exposed_models ?? []).map((m) => <Tag key={m}>{m}</Tag>) },
          { title: t('col.affinity'), render: (_, g) => (g.affinity_enabled ? t('yes') : t('no')) },
          { title: t('col.bridging'), render: (_, g) => bridgingLabel(g.bridging) },
          { title: t('col.members'), render: (_, g) => (g.credential_ids ?? []).map((id) => <Tag key={id}>{names.get(id) ?? id}</Tag>) },
          {
            title: t('col.actions'),
            render: (_, g) => (
              <Space>
                <Button size="small" onClick={() => open(g)} data-testid="group-edit">
                  {canEdit ? t('edit') : t('view')}
                </Button>
                {canDelete && (
                <Popconfirm
                  title={t('confirmDelete')}
                  onConfirm={async () => {
                    await api('DELETE', `/groups/${encodeURIComponent(g.id)}`);
                    void groups.reload();
                  }}
                >
                  <Button size="small" danger data-testid="group-delete">
                    {t('delete')}
                  </Button>
                </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal open={editing !== undefined} title={editing ? (canEdit ? t('group.edit') : t('view')) : t('group.new')} onOk={save} onCancel={() => setEditing(undefined)} footer={canSave ? undefined : null} destroyOnClose>
        {error && <Alert type="error" message={error} style={{ marginBottom: 12 }} />}
        <Form form={form} layout="vertical" disabled={!canSave}>
          {!editing && (
            <Form.Item name="id" label="id">
              <Input placeholder="optional" />
            </Form.Item>
          )}
          <Form.Item name="name" label={t('col.name')} rules={[{ required: true }]}>
            <Input />
          </Form.Item>
          <Space size="large">
            <Form.Item name="enabled" label={t('col.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item name="affinity_enabled" label={t('col.affinity')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Space>
          <Space size="large">
            <Form.Item name="weight_mode" label={t('col.weight')}>
              <Radio.Group options={[{ value: 'auto', label: t('weightAuto') }, { value: 'manual', label: t('weightManual') }]} />
            </Form.Item>
            {weightMode === 'manual' && (
              <Form.Item name="weight" label="1..100">
                <InputNumber />
              </Form.Item>
            )}
          </Space>
          <Form.Item name="bridging" label={t('col.bridging')}>
            <Radio.Group options={BRIDGING.map((value) => ({ value, label: bridgingLabel(value) }))} />
          </Form.Item>
          <Form.Item name="exposed_models" label={t('col.exposedModels')}>
            <Select mode="tags" open={false} tokenSeparators={[',', ' ']} />
          </Form.Item>
          <Form.Item name="credential_ids" label={t('col.members')}>
            <Select mode="multiple" options={(credentials.data ?? []).map((c) => ({ value: c.id, label: c.name }))} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
