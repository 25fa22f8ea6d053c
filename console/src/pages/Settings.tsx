import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, InputNumber, Space, Table, message } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, api, type SettingsView } from '../api/client';
import { showFieldErrors } from './CredentialDrawer';
import { clearChangedErrors } from '../formErrors';
import { PRICE_FIELDS, REQUIRED_PRICES, priceErrors, pricesToRows, rowsToPrices, type PriceRow } from '../prices';
import { useMay } from '../access';

export function SettingsPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [stored, setStored] = useState<SettingsView | null>(null);
  const [error, setError] = useState<string | null>(null);
  // settings are the admin's: other roles see them read-only
  const canSave = useMay()('PATCH', '/settings');

  const load = async () => {
    const settings = await api<SettingsView>('GET', '/settings');
    setStored(settings);
    form.setFieldsValue({ ...settings, model_prices: pricesToRows(settings.model_prices) });
  };
  useEffect(() => {
    void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const save = async () => {
    setError(null);
    const values = await form.validateFields();
    const rows: PriceRow[] = values.model_prices ?? [];
    const problems = priceErrors(rows);
    if (problems.length > 0) {
      form.setFields(problems.map(([row, field, text]) => ({ name: ['model_prices', row, field], errors: [text] })));
      return;
    }
    const prices = rowsToPrices(rows);
    // only what changed is sent: one bad field refuses the whole write
    const body: Record<string, unknown> = {};
    for (const name of ['blacklist_threshold', 'affinity_ttl_seconds', 'affinity_capacity'] as const) {
      if (stored && values[name] !== stored[name]) body[name] = values[name];
    }
    if (JSON.stringify(prices) !== JSON.stringify(stored?.model_prices ?? {})) body.model_prices = prices;
    try {
      await api('PATCH', '/settings', body);
      const changed = Object.keys(body);
      void message.success(changed.length > 0 ? t('settings.savedFields', { fields: changed.join(', ') }) : t('settings.nothingChanged'));
      await load();
    } catch (e) {
      showFieldErrors(form, e);
      setError(e instanceof ApiError ? `${e.code}: ${e.message}` : String(e));
    }
  };

  return (
    <Form
      form={form}
      layout="vertical"
      style={{ maxWidth: 1100 }}
      disabled={!canSave}
      onValuesChange={(changed) => {
        clearChangedErrors(form, changed);
        if (error) setError(null);
      }}
    >
      {error && <Alert type="error" message={error} style={{ marginBottom: 12 }} />}
      {!canSave && <Alert type="info" message={t('readOnly')} style={{ marginBottom: 12 }} data-testid="read-only" />}
      <Form.Item name="blacklist_threshold" label={t('settings.blacklistThreshold')}>
        <InputNumber />
      </Form.Item>
      <Form.Item name="affinity_ttl_seconds" label={t('settings.affinityTtl')}>
        <InputNumber />
      </Form.Item>
      <Form.Item name="affinity_capacity" label={t('settings.affinityCapacity')}>
        <InputNumber />
      </Form.Item>
      <Form.Item label={t('settings.modelPrices')} extra={t('settings.modelPricesHelp')}>
        <Form.List name="model_prices">
          {(fields, { add, remove }) => (
            <>
              <Table
                size="small"
                pagination={false}
                rowKey="key"
                dataSource={fields}
                data-testid="price-table"
                columns={[
                  {
                    title: t('settings.priceModel'),
                    render: (_, field) => (
                      <Form.Item name={[field.name, 'model']} style={{ margin: 0 }}>
                        <Input aria-label={t('settings.priceModel')} style={{ width: 200 }} data-testid="price-model" />
                      </Form.Item>
                    ),
                  },
                  ...PRICE_FIELDS.map((priceField) => ({
                    title: `${t(`settings.price.${priceField}`)}${REQUIRED_PRICES.includes(priceField) ? ' *' : ''}`,
                    render: (_: unknown, field: { name: number }) => (
                      <Form.Item name={[field.name, priceField]} style={{ margin: 0 }}>
                        <InputNumber aria-label={t(`settings.price.${priceField}`)} style={{ width: 110 }} data-testid={`price-${priceField}`} />
                      </Form.Item>
                    ),
                  })),
                  ...(canSave
                    ? [
                        {
                          title: t('col.actions'),
                          render: (_: unknown, field: { name: number }) => (
                            <Button size="small" onClick={() => remove(field.name)} data-testid="price-remove">
                              {t('settings.priceRemove')}
                            </Button>
                          ),
                        },
                      ]
                    : []),
                ]}
              />
              {canSave && (
                <Space style={{ marginTop: 8 }}>
                  <Button onClick={() => add({ model: '' })} data-testid="price-add">
                    {t('settings.priceAdd')}
                  </Button>
                </Space>
              )}
            </>
          )}
        </Form.List>
      </Form.Item>
      {canSave && (
        <Button type="primary" onClick={save} data-testid="settings-save">
          {t('save')}
        </Button>
      )}
    </Form>
  );
}
