import { TreeSelect, type TreeSelectProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { toGroupOptions, useGroupTree } from '../features/access/groupInfo/groupTree';

export interface GroupSelectProps extends Omit<TreeSelectProps, 'treeData'> {
  /** A list filter: clearable, 180 px wide, "All" when empty. Otherwise a form control asking for a group. */
  filter?: boolean;
}

/**
 * The organisation picker used by list filters and forms: the caller's group tree (findTrees, cached and
 * shared by every picker), searchable by name and expanded. `value`/`onChange` pass through, so it works
 * as a Form.Item control.
 */
export function GroupSelect({ filter, ...props }: GroupSelectProps) {
  const { t } = useTranslation();
  const groups = useGroupTree();
  return (
    <TreeSelect
      treeData={toGroupOptions(groups.data)}
      loading={groups.isLoading}
      treeDefaultExpandAll
      showSearch
      treeNodeFilterProp="title"
      popupMatchSelectWidth={false}
      placeholder={filter ? t('common.all') : t('common.selectGroup')}
      {...(filter ? { allowClear: true, style: { width: 180 } } : {})}
      {...props}
    />
  );
}
