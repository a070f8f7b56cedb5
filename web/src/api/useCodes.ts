import { useTranslation } from 'react-i18next';
import { codeLabel, codeOptions, useCodeList, type CodeType } from './settings';

/**
 * One code list for a page (D66): `options` for a form (the enabled items, plus `keep`, the code a
 * record holds, even when disabled since), `all` for a filter, `label` for a cell (the code itself when
 * the list no longer has it).
 */
export function useCodes(type: CodeType) {
  const { i18n } = useTranslation();
  const list = useCodeList(type);
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
