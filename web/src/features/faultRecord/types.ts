import { useTranslation } from 'react-i18next';
import { codeLabel, codeOptions, useCodeList } from '../../api/settings';

/**
 * The fault types of the code list (access/baseType, D66): `options` for a form (the enabled types,
 * plus `keep`, the type a fault holds, even when disabled since), `all` for the filter, `label` for
 * the list (the code itself when the list no longer has it).
 */
export function useFaultTypes() {
  const { i18n } = useTranslation();
  const list = useCodeList('faultType');
  const items = list.data;
  return {
    loading: list.isLoading,
    options: (keep?: string) => codeOptions(items, i18n.language, keep),
    all: () => (items ?? []).map((it) => ({ value: it.code, label: codeLabel(it, i18n.language) })),
    label: (code: string) => {
      const it = items?.find((x) => x.code === code);
      return it ? codeLabel(it, i18n.language) : code;
    },
  };
}
